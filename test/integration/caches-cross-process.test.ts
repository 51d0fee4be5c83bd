/**
 * The per-process caches (API key → organization, settings, the host's listings, the
 * entitlement answer) stay correct across API processes: process B (a real
 * `hiring-integrations serve` on the same PostgreSQL and Redis, every cache TTL an hour,
 * so only an invalidation message can change its mind) answers from warm caches, and each
 * change made elsewhere (a key revoked by the CLI, a listing closed by the host in process
 * A, settings disabled and a license deactivated through A's API) is refused by B within
 * 1 second of the change: the bound "at once" means for a revoked key.
 *
 * Embedded mode (no Redis) has one process by design (PGlite admits one writer): B is then
 * a second activation in this process, over in-process events; the CLI cannot run beside
 * an embedded server, so the key revocation runs only with Redis and PostgreSQL.
 */
import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStandaloneHost, type StandaloneHost } from '../../src/standalone/host/standalone-host';
import { testConfig, testEnv } from '../helpers/config';
import { usingPostgres } from '../helpers/database';
import { testLogger } from '../helpers/log-capture';
import { BIN, freePort, startProcess, waitForHttp, type AppProcess } from '../helpers/processes';
import { ADA, enableProfileApply, GRACE, QUESTIONS, runConnect, waitFor } from '../helpers/profile-flow';
import { usingRedis } from '../helpers/redis';
import { request, startTestHost, type TestHost } from '../helpers/test-host';
import { skipBecause } from '../helpers/skip';

const ORIGIN = 'https://careers.acme.example';
const ANSWERS = { years_experience: 7, work_authorization: true };
/** The promise: another process refuses within this long of the change. */
const BOUND_MS = 1000;

interface ProcessB {
  baseUrl: string;
  stop(): Promise<void>;
}

async function spawnB(t: TestHost): Promise<ProcessB> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const proc: AppProcess = startProcess(
    'api-b',
    ['node', BIN, 'serve'],
    testEnv({
      DATABASE_URL: t.database.url,
      REDIS_URL: t.config.redisUrl,
      QUEUE_PREFIX: t.config.queuePrefix,
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: baseUrl,
      ENTITLEMENT_CACHE_TTL_SECONDS: '3600',
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
    }) as Record<string, string>,
  );
  await waitForHttp(`${baseUrl}/readyz`, proc);
  return { baseUrl, stop: async () => void (await proc.stop('SIGTERM')) };
}

async function secondActivation(t: TestHost): Promise<ProcessB> {
  const host: StandaloneHost = await createStandaloneHost({
    config: testConfig({
      DATABASE_URL: t.database.url,
      BASE_URL: t.baseUrl,
      QUEUE_PREFIX: t.config.queuePrefix,
      ENTITLEMENT_CACHE_TTL_SECONDS: '3600',
      RATE_LIMIT_PER_MINUTE: '0',
    }),
    logger: testLogger(),
    db: t.database.db,
    runWorkers: false,
  });
  const server: Server = createServer(host.app);
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await host.close();
    },
  };
}

/** Polls `probe` every 10 ms until it answers `code`; resolves with the time it first did. */
async function firstAnswer(probe: () => Promise<{ status: number; body: any }>, code: string, timeoutMs = 5000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    const response = await probe();
    const at = Date.now();
    if ((response.body?.error?.code ?? String(response.status)) === code) return at;
    last = response.body;
    if (at > deadline) throw new Error(`no ${code} within ${timeoutMs} ms; last answer ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('caches: another API process refuses within 1 second of a change', function () {
  this.timeout(120_000);
  let t: TestHost;
  let b: ProcessB;
  let acme: { organizationId: string; apiKey: string };
  let listingId: string;
  const separateProcess = usingRedis() && usingPostgres();
  /** ADA already applied: B answers 409 while it accepts, the refusal's code once it sees a change. Writes nothing. */
  const probeB = (apiKey = acme.apiKey) =>
    request(b.baseUrl, 'POST', `/v1/opportunities/listings/${listingId}/applications/profile`, {
      auth: apiKey,
      body: { profile_user_id: ADA.id, answers: ANSWERS },
    });

  before(async () => {
    t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0', ENTITLEMENT_CACHE_TTL_SECONDS: '3600' } });
    acme = await t.createOrganization('Acme');
    listingId = (await t.host.listings.create({ organizationId: acme.organizationId, title: 'Engineer', questions: QUESTIONS })).id;
    await enableProfileApply(t, acme.apiKey, [ORIGIN]);
    for (const candidate of [ADA, GRACE])
      await runConnect(t, { organizationId: acme.organizationId, listingId, origin: ORIGIN, button: `Authorize as ${candidate.name}` });
    await waitFor(async () => Number((await t.database.db('hi_profile_snapshots').count({ n: '*' }).first())?.n ?? 0) >= 2 || undefined, 'two imports');
    b = separateProcess ? await spawnB(t) : await secondActivation(t);
    // B applies once: its caches now hold the key, the listing, the settings and the license.
    const first = await request(b.baseUrl, 'POST', `/v1/opportunities/listings/${listingId}/applications/profile`, {
      auth: acme.apiKey,
      body: { profile_user_id: ADA.id, answers: ANSWERS },
    });
    assert.equal(first.status, 201, first.text);
    assert.equal((await probeB()).status, 409);
  });
  after(async () => {
    await b?.stop();
    await t?.close();
  });

  it('a listing the host closes in process A: B answers 410 listing_closed within 1 s, and accepts again once reopened', async () => {
    const changedAt = Date.now();
    await t.host.listings.setStatus(listingId, 'closed');
    const refusedAt = await firstAnswer(probeB, 'listing_closed');
    assert.ok(refusedAt - changedAt < BOUND_MS, `B refused ${refusedAt - changedAt} ms after the listing closed`);
    const reopenedAt = Date.now();
    await t.host.listings.setStatus(listingId, 'open');
    const acceptedAt = await firstAnswer(probeB, 'duplicate_application');
    assert.ok(acceptedAt - reopenedAt < BOUND_MS, `B accepted ${acceptedAt - reopenedAt} ms after the listing reopened`);
  });

  it('settings disabled through A: B answers 403 integration_disabled within 1 s', async () => {
    const changedAt = Date.now();
    const disabled = await t.request('PATCH', '/v1/organization/settings', { auth: acme.apiKey, body: { profile_apply: { enabled: false } } });
    assert.equal(disabled.status, 200, disabled.text);
    const refusedAt = await firstAnswer(probeB, 'integration_disabled');
    assert.ok(refusedAt - changedAt < BOUND_MS, `B refused ${refusedAt - changedAt} ms after the settings changed`);
    const enabled = await t.request('PATCH', '/v1/organization/settings', { auth: acme.apiKey, body: { profile_apply: { enabled: true } } });
    assert.equal(enabled.status, 200, enabled.text);
    await firstAnswer(probeB, 'duplicate_application', BOUND_MS);
  });

  it('license deactivated through A: B answers 403 license_required within 1 s', async () => {
    const response = await t.request('POST', '/v1/integrations/licenses/profile.accept_application/deactivate', { auth: acme.apiKey });
    assert.equal(response.status, 200, response.text);
    const deactivatedAt = Date.parse(response.body.deactivated_at);
    const refusedAt = await firstAnswer(probeB, 'license_required');
    assert.ok(refusedAt - deactivatedAt < BOUND_MS, `B refused ${refusedAt - deactivatedAt} ms after the license was deactivated`);
  });

  it('an API key revoked with the CLI: B answers 401 invalid_api_key within 1 s', async function () {
    if (!separateProcess) skipBecause(this, 'needs DATABASE_URL and REDIS_URL: the CLI cannot run beside an embedded server');
    const read = () => request(b.baseUrl, 'GET', '/v1/organization', { auth: acme.apiKey });
    assert.equal((await read()).status, 200);
    const cli = startProcess(
      'cli',
      ['node', BIN, 'key', 'revoke', '--key', acme.apiKey],
      testEnv({ DATABASE_URL: t.database.url, REDIS_URL: t.config.redisUrl, QUEUE_PREFIX: t.config.queuePrefix }),
    );
    const refusedAt = await firstAnswer(read, 'invalid_api_key', 20_000);
    const exit = await cli.exited;
    assert.equal(exit.code, 0, cli.output());
    const row = await t.database.db('hi_api_keys').where({ organization_id: acme.organizationId }).first('revoked_at');
    const revokedAt = new Date(row.revoked_at).getTime();
    assert.ok(refusedAt - revokedAt < BOUND_MS, `B refused ${refusedAt - revokedAt} ms after the key was revoked`);
  });
});
