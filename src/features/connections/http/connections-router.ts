/** Mounted at /v1/integrations/connections: an organization's connections to counterparts, and their tests. */
import type { Principal } from '../../../platform/http/principal';
import { defineRoute, reply, z, type RouteDefinition } from '../../../platform/http/route';
import type { Connection } from '../domain/connection';
import type { ConnectionService } from '../domain/connection-service';
import {
  connectionListSchema,
  connectionSchema,
  connectionTestSchema,
  createConnectionBody,
  deletedConnectionSchema,
  updateConnectionBody,
} from './connection-schemas';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;
const idParams = z.object({ connection_id: z.string().max(100) });

export function connectionView(connection: Connection, kind: string): z.output<typeof connectionSchema> {
  return {
    id: connection.id,
    object: 'connection',
    connector: connection.connector,
    kind,
    settings: connection.settings,
    status: connection.status,
    last_test: connection.lastTestedAt
      ? {
          ok: connection.status === 'verified',
          code: connection.lastTestCode ?? 'ok',
          message: connection.lastTestMessage,
          tested_at: connection.lastTestedAt.toISOString(),
        }
      : null,
    created_at: connection.createdAt.toISOString(),
    updated_at: connection.updatedAt.toISOString(),
  };
}

export function connectionRoutes(service: ConnectionService): RouteDefinition<any, any, any>[] {
  const view = (c: Connection) => connectionView(c, service.definition(c.connector).kind);
  return [
    defineRoute({
      method: 'post',
      path: '/',
      operationId: 'createConnection',
      summary: 'Connect an account at a counterpart (settings + credentials); credentials are stored encrypted and never shown again',
      tags: ['connections'],
      auth: ['organization'],
      // No Idempotency-Key replay: the replay store would keep the request's credentials.
      body: createConnectionBody(service.definitions),
      status: 201,
      response: connectionSchema,
      errors: [409],
      handler: async ({ principal, body }) => reply(201, view(await service.create(orgId(principal), body))),
    }),
    defineRoute({
      method: 'get',
      path: '/',
      operationId: 'listConnections',
      summary: "The organization's connections, newest first",
      tags: ['connections'],
      auth: ['organization'],
      response: connectionListSchema,
      handler: async ({ principal }) => ({
        object: 'list' as const,
        data: (await service.list(orgId(principal))).map(view),
        has_more: false,
        url: '/v1/integrations/connections',
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/:connection_id',
      operationId: 'getConnection',
      summary: 'One connection (never its credentials)',
      tags: ['connections'],
      auth: ['organization'],
      params: idParams,
      response: connectionSchema,
      handler: async ({ principal, params }) => view(await service.get(orgId(principal), params.connection_id)),
    }),
    defineRoute({
      method: 'patch',
      path: '/:connection_id',
      operationId: 'updateConnection',
      summary: 'Replace the settings and/or rotate the credentials; the connection is untested until tested again',
      tags: ['connections'],
      auth: ['organization'],
      params: idParams,
      body: updateConnectionBody,
      response: connectionSchema,
      handler: async ({ principal, params, body }) => view(await service.update(orgId(principal), params.connection_id, body)),
    }),
    defineRoute({
      method: 'delete',
      path: '/:connection_id',
      operationId: 'deleteConnection',
      summary: 'Delete the connection and its credentials; actions needing it stop until another is verified',
      tags: ['connections'],
      auth: ['organization'],
      params: idParams,
      response: deletedConnectionSchema,
      handler: async ({ principal, params }) => {
        await service.delete(orgId(principal), params.connection_id);
        return { id: params.connection_id, object: 'connection' as const, deleted: true as const };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/:connection_id/test',
      operationId: 'testConnection',
      summary: 'A real round trip to the counterpart (SMTP: connect, EHLO, STARTTLS, AUTH); answers the outcome with a stable code',
      tags: ['connections'],
      auth: ['organization'],
      params: idParams,
      response: connectionTestSchema,
      errors: [409],
      handler: async ({ principal, params }) => {
        const { connection, outcome } = await service.test(orgId(principal), params.connection_id);
        return {
          object: 'connection_test' as const,
          ok: outcome.ok,
          code: outcome.ok ? 'ok' : outcome.code,
          message: outcome.ok ? outcome.detail : outcome.message,
          connection: view(connection),
        };
      },
    }),
  ];
}
