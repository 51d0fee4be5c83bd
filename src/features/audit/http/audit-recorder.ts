/**
 * The one route-layer hook that feeds the audit trail: every authenticated call of a
 * mutating route (and of routes marked `audit: 'read'`) becomes an audit event with its
 * actor, IP, request id, operation, target, status, the request's field names, what the
 * answer identifies (id, object, status) and the field-level change it made (the resource
 * as its GET route read it before, against the answer; audit-diff.ts bounds and redacts it).
 * Routes about candidates (their records, applications, data-rights requests) keep no
 * values: the trail is kept as evidence after a candidate's erasure, so it holds none of
 * their data, and a candidate id in a path or as the actor is replaced by a keyed
 * pseudonym. A failure to record is logged, never the caller's failure.
 */
import { createHmac } from 'node:crypto';
import type { Logger } from '../../../kernel/logger';
import type { AuditedCall } from '../../../platform/http/route';
import { redact } from '../domain/redact';
import { auditChange } from '../domain/audit-diff';
import type { AuditActorType, AuditEventInput } from '../domain/audit-event';
import type { AuditWriter } from '../domain/audit-writer';

export function describeActor(principal: AuditedCall['principal']): { organizationId: string | null; actorType: AuditActorType; actor: string } | undefined {
  switch (principal.kind) {
    case 'organization':
      return { organizationId: principal.organizationId, actorType: 'organization_key', actor: principal.keyPrefix ?? 'organization_key' };
    case 'operator':
      return { organizationId: null, actorType: 'operator', actor: 'operator' };
    case 'candidate':
      return { organizationId: principal.organizationId, actorType: 'candidate', actor: principal.profileUserId };
    default:
      return undefined;
  }
}

/** An operator's call about one organization joins that organization's chain. */
function organizationTarget(call: AuditedCall): string | null {
  const params = call.req.params as Record<string, string | undefined>;
  const body = (call.req.body ?? {}) as Record<string, unknown>;
  const id = params.organization_id ?? (typeof body.organization_id === 'string' ? body.organization_id : undefined);
  return id && /^org_[0-9A-Za-z]{1,64}$/.test(id) ? id : null;
}

/** What the answer identifies: the ids and states, never the contents. */
function identifies(response: unknown): unknown {
  if (!response || typeof response !== 'object' || Array.isArray(response)) return null;
  const { id, object, status } = response as Record<string, unknown>;
  return redact({ id, object, status });
}

/** Routes whose requests and resources are a candidate's data: the trail keeps field names and ids only. */
export function auditKeepsValues(route: AuditedCall['route']): boolean {
  return !/candidate|profile_user|application|consent|erasure|export|legal_hold|hire/i.test(`${route.path} ${route.tags.join(' ')}`);
}

export function auditRecorder(audit: AuditWriter, logger: Logger, now: () => Date, pseudonymKey: Buffer): (call: AuditedCall) => void {
  const pseudonymize = (text: string) =>
    text.replace(/usr_[0-9A-Za-z_-]{1,64}/g, (id) => `usr~${createHmac('sha256', pseudonymKey).update(id).digest('base64url').slice(0, 16)}`);
  return (call) => {
    const described = describeActor(call.principal);
    if (!described) return;
    const actor = { ...described, actor: pseudonymize(described.actor) };
    // Only a change that happened: a refused call changed nothing.
    const change =
      call.status < 400 && auditKeepsValues(call.route) ? auditChange(call.before ?? null, call.route.method === 'delete' ? null : call.response) : null;
    const event: AuditEventInput = {
      ...actor,
      organizationId: actor.organizationId ?? organizationTarget(call),
      ip: call.req.ip ?? null,
      requestId: call.requestId,
      action: call.route.operationId,
      method: call.route.method.toUpperCase(),
      target: pseudonymize(call.req.originalUrl.split('?')[0]!.slice(0, 500)),
      status: call.status,
      before: change ? { changes: change.before } : null,
      after: {
        request_fields: call.request && typeof call.request === 'object' ? Object.keys(call.request).sort() : [],
        response: call.status < 400 ? identifies(call.response) : null,
        ...(change ? { changes: change.after, ...(change.truncated ? { changes_truncated: true } : {}) } : {}),
      },
      at: now(),
    };
    void audit.record(event).catch((error: Error) => logger.error({ action: event.action, err: error.message }, 'could not record an audit event'));
  };
}
