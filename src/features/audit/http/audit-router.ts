/** Mounted at /v1/audit_events: the organization's audit trail (the operator's: any organization's, or the deployment's). */
import { notFound } from '../../../kernel/errors';
import type { Principal } from '../../../platform/http/principal';
import { defineRoute, z, type RouteDefinition } from '../../../platform/http/route';
import { isoDateTime, listOf } from '../../../platform/http/common-schemas';
import type { AuditEvent, AuditRepository } from '../domain/audit-event';

export const auditEventSchema = z
  .object({
    id: z.string().meta({ example: 'aud_3Jf8Kq1Wm5Zx7Pn2Rb4T' }),
    object: z.literal('audit_event'),
    organization_id: z.string().nullable(),
    sequence: z.number().int().meta({ description: "Position in the organization's hash chain" }),
    actor_type: z.enum(['organization_key', 'operator', 'host', 'candidate', 'system']),
    actor: z.string().meta({ description: "The API key prefix, operator, host, the candidate's pseudonym, or retention (system)" }),
    ip: z.string().nullable(),
    request_id: z.string().nullable(),
    action: z.string().meta({ description: 'The operation (OpenAPI operationId), or hook:<name> for a host hook', example: 'rotateApiKey' }),
    method: z.string(),
    target: z.string().meta({ description: 'The path called' }),
    status: z.number().int(),
    before: z.unknown().meta({
      description:
        '{changes: {path: value}}: the changed fields of the resource before the call (dotted paths; secrets redacted; null for a creation, a refused call, or a call about a candidate)',
    }),
    after: z.unknown().meta({
      description:
        '{request_fields, response: {id, object, status}, changes: {path: value}}: the request field names, what the answer identifies and the changed fields after the call (see docs/privacy.md)',
    }),
    created_at: isoDateTime,
    previous_hash: z.string(),
    hash: z.string().meta({ description: "SHA-256 over the previous event's hash and this event's fields (hiring-integrations audit verify)" }),
  })
  .meta({ id: 'AuditEvent' });

const time = z.iso.datetime({ offset: true });

export function auditEventView(e: AuditEvent): z.output<typeof auditEventSchema> {
  return {
    id: e.id,
    object: 'audit_event',
    organization_id: e.organizationId,
    sequence: e.sequence,
    actor_type: e.actorType,
    actor: e.actor,
    ip: e.ip,
    request_id: e.requestId,
    action: e.action,
    method: e.method,
    target: e.target,
    status: e.status,
    before: e.before,
    after: e.after,
    created_at: e.at.toISOString(),
    previous_hash: e.previousHash,
    hash: e.hash,
  };
}

export function auditRoutes(audit: AuditRepository): RouteDefinition<any, any, any>[] {
  return [
    defineRoute({
      method: 'get',
      path: '/',
      operationId: 'listAuditEvents',
      summary:
        'Audit events, newest first; cursor pagination (limit, starting_after), filters action, actor, created_gte/created_lt; the operator may name organization_id',
      tags: ['audit'],
      auth: ['organization', 'operator'],
      query: z
        .object({
          limit: z.coerce.number().int().min(1).max(100).default(20),
          starting_after: z.string().max(100).optional(),
          action: z.string().max(100).optional(),
          actor: z.string().max(200).optional(),
          organization_id: z.string().max(100).optional(),
          created_gte: time.optional(),
          created_lt: time.optional(),
        })
        .strict(),
      response: listOf(auditEventSchema),
      // Another organization's organization_id.
      errors: [404],
      handler: async ({ principal, query }) => {
        const own = (principal as Principal & { organizationId?: string }).organizationId;
        if (principal.kind === 'organization' && query.organization_id && query.organization_id !== own) throw notFound('organization', query.organization_id);
        const page = await audit.list({
          organizationId: principal.kind === 'organization' ? own : query.organization_id,
          action: query.action,
          actor: query.actor,
          createdGte: query.created_gte ? new Date(query.created_gte) : undefined,
          createdLt: query.created_lt ? new Date(query.created_lt) : undefined,
          startingAfter: query.starting_after,
          limit: query.limit,
        });
        return { object: 'list' as const, data: page.data.map(auditEventView), has_more: page.hasMore, url: '/v1/audit_events' };
      },
    }),
  ];
}
