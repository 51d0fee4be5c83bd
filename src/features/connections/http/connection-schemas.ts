/** Connection resources and requests; the request body is one variant per connector (its own schemas). */
import { z } from 'zod';
import { isoDateTime, listOf, nullableDateTime } from '../../../platform/http/common-schemas';
import type { ConnectorDefinition } from '../domain/connector-definition';

export const connectionSchema = z
  .object({
    id: z.string().meta({ example: 'conn_Jx8fQ2vZr1LkP0aYwE3c' }),
    object: z.literal('connection'),
    connector: z.string().meta({ example: 'smtp' }),
    kind: z.string().meta({ description: 'The port it fills: email, sms, …', example: 'email' }),
    settings: z.record(z.string(), z.unknown()).meta({ description: "The connector's settings as stored (credentials are never shown)" }),
    status: z.enum(['untested', 'verified', 'failed']).meta({ description: 'Only a verified connection runs actions; any change makes it untested again' }),
    last_test: z
      .object({ ok: z.boolean(), code: z.string(), message: z.string().nullable(), tested_at: isoDateTime })
      .nullable()
      .meta({ description: 'code: ok, connection_auth_failed, connection_unreachable, connection_tls_failed, connection_protocol_error, …' }),
    created_at: isoDateTime,
    updated_at: isoDateTime,
  })
  .meta({ id: 'Connection' });

export const connectionListSchema = listOf(connectionSchema);

export const deletedConnectionSchema = z
  .object({ id: z.string(), object: z.literal('connection'), deleted: z.literal(true) })
  .meta({ id: 'DeletedConnection' });

export const connectionTestSchema = z
  .object({
    object: z.literal('connection_test'),
    ok: z.boolean(),
    code: z.string().meta({ example: 'connection_auth_failed' }),
    message: z.string(),
    connection: connectionSchema,
  })
  .meta({ id: 'ConnectionTest' });

export const testedAt = nullableDateTime;

/** `{connector, settings, credentials}`, one variant per connector of this build. */
export function createConnectionBody(definitions: readonly ConnectorDefinition[]) {
  const variants = definitions.map((d) =>
    z
      .object({
        connector: z.literal(d.key),
        settings: d.settings,
        credentials: d.credentials.meta({ description: 'Stored encrypted; never shown again' }),
      })
      .strict()
      .meta({ id: `Create${d.key[0]!.toUpperCase()}${d.key.slice(1)}Connection`, description: d.description }),
  );
  return z.discriminatedUnion('connector', variants as unknown as [(typeof variants)[0], ...(typeof variants)[number][]]);
}

export const updateConnectionBody = z
  .object({
    settings: z.record(z.string(), z.unknown()).optional().meta({ description: "The connector's whole settings object (validated by its schema)" }),
    credentials: z.record(z.string(), z.unknown()).optional().meta({ description: 'New credentials (rotation); stored encrypted, never shown again' }),
  })
  .strict();
