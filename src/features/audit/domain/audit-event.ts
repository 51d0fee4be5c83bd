/**
 * The audit trail: who changed what (and who read a candidate's full record). Append-only
 * and tamper-evident: events form one hash chain per organization (operator calls outside
 * any organization chain under `_deployment`); each carries the previous event's hash, and
 * its own hash covers every field, so a changed row breaks its hash and a removed row
 * breaks the next one's link (audit-chain.ts verifies).
 */
export type AuditActorType = 'organization_key' | 'operator' | 'host' | 'candidate';

export interface AuditEventInput {
  /** The organization whose chain it joins; null for deployment-level operator calls. */
  organizationId: string | null;
  actorType: AuditActorType;
  /** A key prefix, `operator`, `host`, or the candidate's profile id. */
  actor: string;
  ip: string | null;
  requestId: string | null;
  /** The operation (its OpenAPI operationId) and the HTTP status it answered. */
  action: string;
  method: string;
  target: string;
  status: number;
  before: unknown;
  after: unknown;
  at: Date;
}

export interface AuditEvent extends AuditEventInput {
  id: string;
  sequence: number;
  chain: string;
  previousHash: string;
  hash: string;
}

export const DEPLOYMENT_CHAIN = '_deployment';
export const GENESIS_HASH = '0'.repeat(64);

export interface AuditEventList {
  data: AuditEvent[];
  hasMore: boolean;
}

export interface AuditFilter {
  organizationId?: string;
  action?: string;
  actor?: string;
  createdGte?: Date;
  createdLt?: Date;
  /** Events older than this one (newest first). */
  startingAfter?: string;
  limit: number;
}

export interface AuditRepository {
  /** Appends under the chain's head lock: the chain never forks, whatever the concurrency. */
  append(event: AuditEventInput): Promise<AuditEvent>;
  list(filter: AuditFilter): Promise<AuditEventList>;
  /** One chain, oldest first, for verification. */
  chain(chain: string): Promise<AuditEvent[]>;
  chains(): Promise<string[]>;
  head(chain: string): Promise<{ lastSequence: number; lastHash: string } | undefined>;
}

export const AUDIT_REPOSITORY = Symbol('AuditRepository');
