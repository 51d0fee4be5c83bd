/** Hashing and verifying an audit chain. Pure: the CLI and the tests run it over stored rows. */
import { createHash } from 'node:crypto';
import { GENESIS_HASH, type AuditEvent } from './audit-event';

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

export type ChainProblem = { sequence: number; id: string; problem: 'hash_mismatch' | 'broken_link' | 'sequence_gap' | 'truncated' };

/**
 * Every problem in a chain given oldest first (empty: intact). `head`, the chain's recorded
 * last event, catches the removal of the newest events (no successor shows that gap).
 */
export function verifyChain(events: readonly AuditEvent[], head?: { lastSequence: number; lastHash: string }): ChainProblem[] {
  const problems: ChainProblem[] = [];
  let previous = GENESIS_HASH;
  let expectedSequence = 1;
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
  return problems;
}
