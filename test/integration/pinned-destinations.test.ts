/**
 * Organizations' connections are pinned at connect time, against real counterparts on
 * loopback (Debian's aiosmtpd, a scimmy SCIM server, Debian's xandikos): a host that resolves
 * to loopback is refused when the connector connects, with `destination_not_allowed` (the
 * test's outcome; a step's permanent failure), and the server receives nothing; the same
 * host on the operator's allow list goes through. The rebinding itself (public to the check,
 * loopback to the connect) runs through the connections' own service and resolver with a
 * scripted resolver. Every other connector's connect path answers the same code. Through the
 * API: a meeting site on an allowed host that redirects to another loopback address is refused
 * at the redirect's connection (it used to be followed).
 */
import { strict as assert } from 'node:assert';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { caldavConnector } from '../../src/connectors/caldav';
import { checkrConnector } from '../../src/connectors/checkr';
import { jitsiConnector } from '../../src/connectors/jitsi';
import { meetingUrlTemplateConnector } from '../../src/connectors/meeting-url-template';
import { posCsvConnector } from '../../src/connectors/pos-csv';
import { scimConnector } from '../../src/connectors/scim';
import { sftpConnector } from '../../src/connectors/sftp';
import { smppConnector } from '../../src/connectors/smpp';
import { smtpConnector } from '../../src/connectors/smtp';
import { squareConnector } from '../../src/connectors/square';
import { stripeConnectConnector } from '../../src/connectors/stripe-connect';
import { twilioConnector } from '../../src/connectors/twilio';
import type { Connection, ConnectionRepository } from '../../src/features/connections/domain/connection';
import { ConnectionService } from '../../src/features/connections/domain/connection-service';
import type { ConnectorDefinition } from '../../src/features/connections/domain/connector-definition';
import { ConnectorResolver } from '../../src/features/connections/domain/connector-resolver';
import { DomainError } from '../../src/kernel/errors';
import { isPublicAddress } from '../../src/platform/network/address-policy';
import { pinnedNetwork, type DnsLookup, type OutboundNetwork } from '../../src/platform/network/pinned-network';
import { startAiosmtpd, type Aiosmtpd } from '../helpers/aiosmtpd';
import { freePort } from '../helpers/processes';
import { startScimServer, type TestScimServer } from '../helpers/scim-server';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { startXandikos, type Xandikos } from '../helpers/xandikos';

const TOKEN = 'scim-token-0123456789abcdef';
const email = (n: number) => ({
  organizationId: 'org_1',
  actionKey: 'notifications.interview_reminder',
  idempotencyKey: `pinned-${n}`,
  to: { name: 'Ada Lovelace', email: 'ada@example.com' },
  subject: `Interview ${n}`,
  text: 'See you on Tuesday.',
});

/** Answers `answers[n]` to the n-th question, the last one from then on: what a rebinding name does. */
function scriptedResolver(...answers: string[][]): DnsLookup {
  let asked = 0;
  return (_hostname, _options, callback) => {
    const addresses = answers[Math.min(asked++, answers.length - 1)]!;
    setImmediate(() =>
      callback(
        null,
        addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 })),
      ),
    );
  };
}

function oneConnection(connector: string, settings: Record<string, unknown>): ConnectionRepository {
  const connection: Connection = {
    id: 'conn_1',
    organizationId: 'org_1',
    connector,
    settings,
    status: 'verified',
    lastTestCode: null,
    lastTestMessage: null,
    lastTestedAt: new Date(0),
    createdAt: new Date(0),
    updatedAt: new Date(0),
  };
  return {
    create: async () => undefined,
    find: async () => connection,
    list: async () => [connection],
    credentialsOf: async () => ({}),
    update: async () => undefined,
    delete: async () => true,
  };
}

describe('pinned destinations: connections refused at connect time, against real counterparts', function () {
  this.timeout(30_000);
  let smtp: Aiosmtpd;
  let scim: TestScimServer;
  let dav: Xandikos;
  const networks: OutboundNetwork[] = [];
  const network = (allowedInternalHosts: string[], dnsLookup?: DnsLookup) => {
    const opened = pinnedNetwork({ allowedInternalHosts, ...(dnsLookup ? { dnsLookup } : {}) });
    networks.push(opened);
    return opened;
  };
  const delivered = async () => (await smtp.messages().catch(() => [])).length;
  const smtpSettings = () =>
    smtpConnector.settings.parse({ host: 'localhost', port: smtp.port, security: 'none', from_email: 'jobs@acme.example', pool: false });

  before(async () => {
    [smtp, scim, dav] = await Promise.all([freePort().then((port) => startAiosmtpd(port)), startScimServer(TOKEN), startXandikos()]);
  });
  after(async () => {
    await Promise.all([smtp?.stop(), scim?.close(), dav?.stop(), ...networks.map((n) => n.close())]);
  });

  it('SMTP: a relay host resolving to loopback fails the test and the step with destination_not_allowed; nothing reaches aiosmtpd; allowed, it delivers', async () => {
    const guarded = network([]);
    const tested = await smtpConnector.test(smtpSettings(), {}, guarded);
    assert.deepEqual([tested.ok, !tested.ok && tested.code], [false, 'destination_not_allowed'], JSON.stringify(tested));
    const port = smtpConnector.open(smtpSettings(), {}, { organizationId: 'org_1', connectionId: 'conn_1', network: guarded });
    await assert.rejects(port.sendEmail(email(1)), (error: unknown) => {
      assert.ok(error instanceof DomainError);
      assert.deepEqual([error.kind, error.code], ['conflict', 'destination_not_allowed']); // permanent: never retried
      return true;
    });
    port.close?.();
    assert.equal(await delivered(), 0);
    // The same host on the operator's list: the relay was there all along.
    const allowed = smtpConnector.open(smtpSettings(), {}, { organizationId: 'org_1', connectionId: 'conn_1', network: network(['localhost']) });
    await allowed.sendEmail(email(2));
    allowed.close?.();
    assert.equal(await delivered(), 1);
  });

  it('HTTP (SCIM over fetch): a base URL on loopback, by name or literal, is refused at connect; the directory sees no request', async () => {
    const byName = scim.baseUrl.replace('127.0.0.1', 'localhost');
    for (const base_url of [byName, scim.baseUrl]) {
      const tested = await scimConnector.test(scimConnector.settings.parse({ base_url }), { token: TOKEN }, network([]));
      assert.deepEqual([tested.ok, !tested.ok && tested.code], [false, 'destination_not_allowed'], JSON.stringify(tested));
    }
    const port = scimConnector.open(
      scimConnector.settings.parse({ base_url: byName }),
      { token: TOKEN },
      { organizationId: 'org_1', connectionId: 'conn_1', network: network([]) },
    );
    await assert.rejects(
      port.syncEmployee({
        organizationId: 'org_1',
        actionKey: 'hris.employee_sync',
        idempotencyKey: 'k',
        candidateId: 'cand_1',
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        jobTitle: null,
        startDate: null,
        department: null,
      }),
      (error: unknown) => error instanceof DomainError && error.code === 'destination_not_allowed' && error.kind === 'conflict',
    );
    assert.deepEqual(scim.requests, []);
    const allowed = await scimConnector.test(scimConnector.settings.parse({ base_url: byName }), { token: TOKEN }, network(['localhost']));
    assert.equal(allowed.ok, true, JSON.stringify(allowed));
  });

  it('CalDAV (tsdav with the pinned fetch): discovery on loopback is refused; allowed, it finds the calendar', async () => {
    const server_url = dav.url.replace('127.0.0.1', 'localhost');
    const refused = await caldavConnector.test(caldavConnector.settings.parse({ server_url }), {}, network([]));
    assert.deepEqual([refused.ok, !refused.ok && refused.code], [false, 'destination_not_allowed'], JSON.stringify(refused));
    const allowed = await caldavConnector.test(caldavConnector.settings.parse({ server_url }), {}, network(['localhost']));
    assert.equal(allowed.ok, true, JSON.stringify(allowed));
  });

  it('DNS rebinding through the connections service and resolver: public to the check, loopback to the connect; refused, aiosmtpd untouched', async () => {
    const before = await delivered();
    const settings = { host: 'relay.rebind.example', port: smtp.port, security: 'none', from_email: 'jobs@acme.example', pool: false };
    const definitions = [smtpConnector as ConnectorDefinition];
    // The guard's check asks the same resolver the connection does: the first answer is public.
    const guardOver = (resolver: DnsLookup) => ({
      check: (host: string) =>
        new Promise<'ok' | 'not_public'>((resolve) =>
          resolver(host, { all: true }, (_e, addresses) => resolve(addresses.every((a) => isPublicAddress(a.address)) ? 'ok' : 'not_public')),
        ),
      network: network([], resolver),
    });
    const service = new ConnectionService(
      oneConnection('smtp', settings),
      definitions,
      () => new Date(),
      async () => undefined,
      guardOver(scriptedResolver(['93.184.215.14'], ['127.0.0.1'])),
    );
    const { outcome } = await service.test('org_1', 'conn_1');
    assert.deepEqual([outcome.ok, !outcome.ok && outcome.code], [false, 'destination_not_allowed'], JSON.stringify(outcome));
    const resolver = new ConnectorResolver(oneConnection('smtp', settings), definitions, {
      production: true,
      hostPorts: {},
      defaults: [],
      sandbox: {},
      destinations: guardOver(scriptedResolver(['2606:2800:21f:cb07:6820:80da:af6b:8b2c'], ['169.254.169.254', '127.0.0.1'])),
    });
    const { port } = await resolver.resolve('org_1', 'email', 'notifications.interview_reminder');
    await assert.rejects(
      port.sendEmail(email(3)),
      (error: unknown) => error instanceof DomainError && error.code === 'destination_not_allowed' && error.kind === 'conflict',
    );
    resolver.close();
    assert.equal(await delivered(), before);
  });

  it('every other connector refuses a loopback host at connect with destination_not_allowed (directly: only unreachable)', async () => {
    const closed = await freePort();
    const local = `http://localhost:${closed}`;
    const cases: [ConnectorDefinition, unknown, unknown][] = [
      [smppConnector, { host: 'localhost', port: closed, source_addr: '+4930123456' }, { system_id: 'acme', password: 'secret' }],
      [
        sftpConnector,
        { host: 'localhost', port: closed, username: 'acme', directory: '/inbound', host_key_sha256: `SHA256:${'A'.repeat(43)}` },
        { password: 'p' },
      ],
      [
        posCsvConnector,
        { host: 'localhost', port: closed, username: 'acme', directory: '/inbound', host_key_sha256: `SHA256:${'A'.repeat(43)}` },
        { password: 'p' },
      ],
      [twilioConnector, { account_sid: `AC${'a'.repeat(32)}`, from: '+15005550006', api_base_url: local }, { auth_token: 'a'.repeat(32) }],
      [checkrConnector, { api_base_url: local }, { api_key: 'a'.repeat(32) }],
      [squareConnector, { api_base_url: local }, { access_token: 'a'.repeat(32) }],
      [
        stripeConnectConnector,
        { api_base_url: local, onboarding_refresh_url: 'https://gigs.example/expired', onboarding_return_url: 'https://gigs.example/done' },
        { secret_key: 'sk_test_abc' },
      ],
      [jitsiConnector, { base_url: local, app_id: 'hiring' }, { app_secret: 'a'.repeat(32) }],
      [meetingUrlTemplateConnector, { template: `${local}/{room}` }, { room_secret: 'a'.repeat(16) }],
    ];
    for (const [connector, settings, credentials] of cases) {
      const parsed = [connector.settings.parse(settings), connector.credentials.parse(credentials)] as const;
      const refused = await connector.test(...parsed, network([]));
      assert.deepEqual([connector.key, !refused.ok && refused.code], [connector.key, 'destination_not_allowed'], JSON.stringify(refused));
      // The refusal's own words, not the library's wrapper ("fetch failed").
      assert.match(!refused.ok ? refused.message : '', /localhost resolves to (127\.0\.0\.1|::1), not a public address/, connector.key);
      const direct = await connector.test(...parsed);
      assert.ok(!direct.ok && direct.code !== 'destination_not_allowed', `${connector.key}: ${JSON.stringify(direct)}`);
    }
  });

  describe('through the API: a redirect inward is refused at its connection', () => {
    let t: TestHost;
    let inner: http.Server;
    let outer: http.Server;
    const innerHits: string[] = [];
    const listen = async (server: http.Server, host: string) => {
      server.listen(0, host);
      await new Promise((resolve) => server.once('listening', resolve));
      return (server.address() as AddressInfo).port;
    };

    before(async () => {
      // 127.0.0.2 stands for the metadata address or a database: loopback, and not on CONNECTOR_ALLOWED_INTERNAL_HOSTS.
      inner = http.createServer((request, response) => {
        innerHits.push(request.url ?? '');
        response.end('{"AccessKeyId":"…"}');
      });
      const innerPort = await listen(inner, '127.0.0.2');
      outer = http.createServer((_request, response) => {
        response.writeHead(302, { location: `http://127.0.0.2:${innerPort}/latest/meta-data/iam/` });
        response.end();
      });
      await listen(outer, '127.0.0.1');
      t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
      // The inner server is there: a plain fetch reaches it.
      assert.equal((await fetch(`http://127.0.0.2:${innerPort}/control`)).status, 200);
      innerHits.length = 0;
    });
    after(async () => {
      await t?.close();
      await Promise.all([inner, outer].map((s) => s && new Promise((resolve) => s.close(resolve))));
    });

    it('the connection test answers destination_not_allowed and the inner server is never asked', async () => {
      const acme = await t.createOrganization('Acme');
      const created = await t.request('POST', '/v1/integrations/connections', {
        auth: acme.apiKey,
        body: {
          connector: 'meeting_url_template',
          settings: { template: `http://127.0.0.1:${(outer.address() as AddressInfo).port}/{room}` },
          credentials: { room_secret: 'a-room-secret-of-our-own' },
        },
      });
      assert.equal(created.status, 201, created.text);
      const tested = await t.request('POST', `/v1/integrations/connections/${created.body.id}/test`, { auth: acme.apiKey });
      assert.equal(tested.status, 200, tested.text);
      assert.deepEqual([tested.body.ok, tested.body.code, tested.body.connection.status], [false, 'destination_not_allowed', 'failed'], tested.text);
      assert.deepEqual(innerHits, []);
    });
  });
});
