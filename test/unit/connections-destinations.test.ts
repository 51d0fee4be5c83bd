/**
 * The SSRF guard on organizations' connections, with the real address policy (no DNS: the
 * hosts are addresses): a stored connection whose host now points inward is refused when
 * tested (the counterpart is never called) and when opened for a step (a permanent failure);
 * a host the operator allowed passes; deployment defaults are never checked.
 */
import { strict as assert } from 'node:assert';
import { z } from 'zod';
import type { Connection, ConnectionRepository } from '../../src/features/connections/domain/connection';
import type { DestinationGuard } from '../../src/features/connections/domain/connection-destinations';
import { ConnectionService } from '../../src/features/connections/domain/connection-service';
import type { ConnectorDefinition } from '../../src/features/connections/domain/connector-definition';
import { ConnectorResolver } from '../../src/features/connections/domain/connector-resolver';
import type { NotificationConnector } from '../../src/features/hooks/domain/connectors';
import { DomainError } from '../../src/kernel/errors';
import { checkHost } from '../../src/platform/network/address-policy';
import { CONNECTORS } from '../../src/connectors';

const guard = (allowed: string[] = []): DestinationGuard => ({ check: (host) => checkHost(host, allowed) });

function fixture(host: string) {
  const calls: string[] = [];
  const definition: ConnectorDefinition<'email', { host: string }> = {
    key: 'smtp',
    kind: 'email',
    description: 'test',
    settings: z.object({ host: z.string() }),
    credentials: z.object({}).passthrough(),
    destinations: (s) => [{ param: 'settings.host', host: s.host }],
    test: async (s) => {
      calls.push(`test ${s.host}`);
      return { ok: true, detail: 'ok' };
    },
    open: (s): NotificationConnector => {
      calls.push(`open ${s.host}`);
      return { sendEmail: async () => ({ deliveryId: 'd' }) };
    },
  };
  const connection: Connection = {
    id: 'conn_1',
    organizationId: 'org_1',
    connector: 'smtp',
    settings: { host },
    status: 'verified',
    lastTestCode: null,
    lastTestMessage: null,
    lastTestedAt: new Date(0),
    createdAt: new Date(0),
    updatedAt: new Date(0),
  };
  const repository: ConnectionRepository = {
    create: async () => undefined,
    find: async () => connection,
    list: async () => [connection],
    credentialsOf: async () => ({}),
    update: async () => undefined,
    delete: async () => true,
  };
  return { calls, definition, repository };
}

describe('connections: the SSRF guard on hosts organizations give', () => {
  for (const host of ['169.254.169.254', '10.0.0.7', '127.0.0.1', '::1', '::ffff:192.168.1.1', '100.64.0.1']) {
    it(`${host}: the test answers destination_not_allowed without calling the counterpart; a step fails permanently`, async () => {
      const { calls, definition, repository } = fixture(host);
      const service = new ConnectionService(
        repository,
        [definition],
        () => new Date(),
        async () => undefined,
        guard(),
      );
      const { outcome } = await service.test('org_1', 'conn_1');
      assert.deepEqual({ ok: outcome.ok, code: outcome.ok ? undefined : outcome.code }, { ok: false, code: 'destination_not_allowed' });
      const resolver = new ConnectorResolver(repository, [definition], { production: true, hostPorts: {}, defaults: [], sandbox: {}, destinations: guard() });
      await assert.rejects(resolver.resolve('org_1', 'email', 'notifications.interview_reminder'), (e: unknown) => {
        assert.ok(e instanceof DomainError);
        assert.equal(e.code, 'destination_not_allowed');
        assert.equal(e.kind, 'conflict'); // permanent: never retried
        return true;
      });
      assert.deepEqual(calls, []);
    });
  }

  it('a public address passes; an internal host the operator allowed passes', async () => {
    const open = fixture('8.8.8.8');
    const resolver = new ConnectorResolver(open.repository, [open.definition], {
      production: true,
      hostPorts: {},
      defaults: [],
      sandbox: {},
      destinations: guard(),
    });
    await resolver.resolve('org_1', 'email', 'notifications.interview_reminder');
    const allowed = fixture('10.0.0.7');
    const service = new ConnectionService(
      allowed.repository,
      [allowed.definition],
      () => new Date(),
      async () => undefined,
      guard(['10.0.0.7']),
    );
    assert.equal((await service.test('org_1', 'conn_1')).outcome.ok, true);
    assert.deepEqual([...open.calls, ...allowed.calls], ['open 8.8.8.8', 'test 10.0.0.7']);
  });

  it("the deployment's default connection is the operator's own: never checked", async () => {
    const { calls, definition } = fixture('unused');
    const empty: ConnectionRepository = { ...fixture('x').repository, list: async () => [] };
    const resolver = new ConnectorResolver(empty, [definition], {
      production: true,
      hostPorts: {},
      defaults: [{ kind: 'email', connector: 'smtp', settings: { host: '127.0.0.1' }, credentials: {} }],
      sandbox: {},
      destinations: guard(),
    });
    assert.equal((await resolver.resolve('org_1', 'email', 'notifications.interview_reminder')).connector, 'smtp');
    assert.deepEqual(calls, ['open 127.0.0.1']);
  });

  it('every connector of this build declares the hosts its settings reach (a new connector joins the guard)', () => {
    const without = CONNECTORS.filter((c) => typeof c.destinations !== 'function').map((c) => c.key);
    assert.deepEqual(without, []);
  });
});
