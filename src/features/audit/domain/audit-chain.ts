/** Hashing and verifying an audit chain. Pure: the CLI and the tests run it over stored rows. */
import { createHash } from 'node:crypto';
import { AUDIT_PRUNED_ACTION, GENESIS_HASH, type AuditEvent } from './audit-event';

/** JSON with object keys sorted at every depth: one text per value, whatever the key order it was stored with. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** The hash of an event: SHA-256 over the previous hash and every field but the hash itself. */
export function eventHash(event: Omit<AuditEvent, 'hash'> & { hash?: string }): string {
  const { previousHash, hash: _ignored, ...fields } = event;
  const body = canonicalJson({ ...fields, at: fields.at.toISOString() });
  return createHash('sha256').update(previousHash).update('\n').update(body).digest('hex');
}

export type ChainProblem = {
  sequence: number;
  id: string;
  problem: 'hash_mismatch' | 'broken_link' | 'sequence_gap' | 'truncated' | 'anchor_mismatch';
};

export interface ChainHead {
  lastSequence: number;
  lastHash: string;
  anchorSequence?: number;
  anchorHash?: string;
}

/**
 * Every problem in a chain given oldest first (empty: intact). `head`, the chain's recorded
 * last event, catches the removal of the newest events (no successor shows that gap). After
 * retention pruned the oldest events, the chain starts after the head's anchor, and the anchor
 * must be the one the newest prune event recorded inside the chain (moving it to hide a
 * removal breaks that).
 */
export function verifyChain(events: readonly AuditEvent[], head?: ChainHead): ChainProblem[] {
  const problems: ChainProblem[] = [];
  const anchorSequence = head?.anchorSequence ?? 0;
  const anchorHash = head?.anchorHash ?? GENESIS_HASH;
  let previous = anchorHash;
  let expectedSequence = anchorSequence + 1;
  for (const event of events) {
    if (event.sequence !== expectedSequence) problems.push({ sequence: event.sequence, id: event.id, problem: 'sequence_gap' });
    if (event.previousHash !== previous) problems.push({ sequence: event.sequence, id: event.id, problem: 'broken_link' });
    if (eventHash(event) !== event.hash) problems.push({ sequence: event.sequence, id: event.id, problem: 'hash_mismatch' });
    previous = event.hash;
    expectedSequence = event.sequence + 1;
  }
  if (head && (head.lastHash !== previous || head.lastSequence !== expectedSequence - 1)) {
    problems.push({ sequence: head.lastSequence, id: events.at(-1)?.id ?? '', problem: 'truncated' });
  }
  if (anchorSequence > 0) {
    const pruned = events.filter((e) => e.action === AUDIT_PRUNED_ACTION).at(-1);
    const recorded = (pruned?.after ?? {}) as { through_sequence?: unknown; through_hash?: unknown };
    if (recorded.through_sequence !== anchorSequence || recorded.through_hash !== anchorHash)
      problems.push({ sequence: anchorSequence, id: pruned?.id ?? '', problem: 'anchor_mismatch' });
  }
  return problems;
}
