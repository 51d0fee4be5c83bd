/**
 * Which implementation performs a step (ConnectorResolver), without I/O: the organization's
 * verified connection wins over the host's implementation, the deployment default and the
 * sandbox; its unverified connection stops the step; production never resolves the sandbox.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import type { Delivery, EmailMessage, NotificationConnector } from '../../src/features/hooks/domain/connectors';
import { DomainError } from '../../src/kernel/errors';
import type { Connection, ConnectionRepository, ConnectionStatus } from '../../src/features/connections/domain/connection';
import type { ConnectorDefinition } from '../../src/features/connections/domain/connector-definition';
import { ConnectorResolver, type ResolverOptions } from '../../src/features/connections/domain/connector-resolver';
import { z } from 'zod';

const port = (name: string): NotificationConnector => ({ sendEmail: async (_m: EmailMessage): Promise<Delivery> => ({ deliveryId: name }) });

const definition: ConnectorDefinition<'email'> = {
  key: 'smtp',
  kind: 'email',
  description: 'test',
  settings: z.object({}).passthrough(),
  credentials: z.object({}).passthrough(),
  test: async () => ({ ok: true, detail: '' }),
  open: () => port('connection'),
};

function repository(status: ConnectionStatus | undefined): ConnectionRepository {
  const connection: Connection | undefined = status && {
    id: 'conn_1',
    organizationId: 'org_1',
    connector: 'smtp',
    settings: {},
    status,
    lastTestCode: null,
    lastTestMessage: null,
    lastTestedAt: null,
    createdAt: new Date(0),
    updatedAt: new Date(0),
  };
  return {
    create: async () => undefined,
    find: async () => connection,
    list: async () => (connection ? [connection] : []),
    credentialsOf: async () => ({}),
    update: async () => undefined,
    delete: async () => true,
  };
}

async function resolveWith(status: ConnectionStatus | undefined, options: Partial<ResolverOptions>) {
  const resolver = new ConnectorResolver(repository(status), [definition], { production: false, hostPorts: {}, defaults: [], sandbox: {}, ...options });
  try {
    const resolved = await resolver.resolve('org_1', 'email', 'notifications.interview_reminder');
    return { connector: resolved.connector, livemode: resolved.livemode };
  } catch (error) {
    assert.ok(error instanceof DomainError);
    return { error: error.code };
  }
}

describe('connections: which implementation performs a step', () => {
  it('in production the sandbox never resolves: no implementation is connection_missing', async () => {
    assert.deepEqual(await resolveWith(undefined, { production: true, sandbox: { email: port('sandbox') } }), { error: 'connection_missing' });
    assert.deepEqual(await resolveWith(undefined, { production: false, sandbox: { email: port('sandbox') } }), { connector: 'sandbox', livemode: false });
  });

  it('the order holds for every combination: verified connection, host, default, sandbox (test mode only)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<ConnectionStatus | undefined>(undefined, 'untested', 'verified', 'failed'),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        async (status, host, fallback, sandbox, production) => {
          const got = await resolveWith(status, {
            production,
            hostPorts: host ? { email: port('host') } : {},
            defaults: fallback ? [{ kind: 'email', connector: 'smtp', settings: {}, credentials: {} }] : [],
            sandbox: sandbox ? { email: port('sandbox') } : {},
          });
          const expected =
            status === 'verified'
              ? { connector: 'smtp', livemode: true }
              : status !== undefined
                ? { error: 'connection_missing' }
                : host
                  ? { connector: 'host', livemode: true }
                  : fallback
                    ? { connector: 'smtp', livemode: true }
                    : sandbox && !production
                      ? { connector: 'sandbox', livemode: false }
                      : { error: 'connection_missing' };
          assert.deepEqual(got, expected);
        },
      ),
      { numRuns: 100 },
    );
  });
});
