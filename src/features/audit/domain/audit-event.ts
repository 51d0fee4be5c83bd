/**
 * The audit trail: who changed what (and who read a candidate's full record). Append-only
 * and tamper-evident: events form one hash chain per organization (operator calls outside
 * any organization chain under `_deployment`); each carries the previous event's hash, and
 * its own hash covers every field, so a changed row breaks its hash and a removed row
 * breaks the next one's link (audit-chain.ts verifies).
 */
/** `system`: the plugin's own scheduled work (the retention pass pruning the trail). */
export type AuditActorType = 'organization_key' | 'operator' | 'host' | 'candidate' | 'system';

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

export interface AuditHead {
  lastSequence: number;
  lastHash: string;
  /** The newest event removed by retention (0 and the genesis hash: none); verification starts after it. */
  anchorSequence: number;
  anchorHash: string;
}

export interface AuditRepository {
  /** Appends under the chain's head lock: the chain never forks, whatever the concurrency. */
  append(event: AuditEventInput): Promise<AuditEvent>;
  /** The hot path: one durable INSERT of the event, not yet in its chain (chainPending puts it there). */
  record(event: AuditEventInput): Promise<void>;
  /** Moves up to `limit` of a chain's pending events into it, oldest first, under one head lock; how many it moved. */
  chainPending(chain: string, limit: number): Promise<number>;
  /** Chains with pending events recorded before `before`. */
  pendingChains(before: Date): Promise<string[]>;
  /**
   * Removes the chain's oldest events, those recorded before `cutoff` (a prefix of the chain), moves the
   * head's anchor to the last one removed and appends a `system` event saying so, in one transaction.
   */
  prune(chain: string, cutoff: Date, at: Date): Promise<number>;
  list(filter: AuditFilter): Promise<AuditEventList>;
  /** One chain, oldest first, for verification. */
  chain(chain: string): Promise<AuditEvent[]>;
  chains(): Promise<string[]>;
  head(chain: string): Promise<AuditHead | undefined>;
}

/** The action of the event retention appends when it prunes a chain. */
export const AUDIT_PRUNED_ACTION = 'retention:audit_events';

export const AUDIT_REPOSITORY = Symbol('AuditRepository');
