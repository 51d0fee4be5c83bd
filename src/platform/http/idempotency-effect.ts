/**
 * The idempotency key of the request being handled, carried through async calls, so a
 * repository can record what it creates on that key in the same statement as the
 * creation (a retry after a lost answer then replays it instead of conflicting with it).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Knex } from 'knex';
import type { Database } from '../database/database';

const current = new AsyncLocalStorage<{ scope: string; key: string }>();

export function runWithIdempotencyKey<T>(scope: string, key: string, work: () => Promise<T>): Promise<T> {
  return current.run({ scope, key }, work);
}

/** The current request's idempotency key, or undefined outside one. */
export const heldIdempotencyKey = (): { scope: string; key: string } | undefined => current.getStore();

/** An UPDATE naming `effectId` on the current request's key (for a data-modifying WITH), or undefined outside one. */
export function idempotencyEffect(db: Database, effectId: string): Knex.QueryBuilder | undefined {
  const held = current.getStore();
  if (!held) return undefined;
  return db('hi_idempotency_keys').where({ scope: held.scope, key: held.key }).whereNull('response_status').update({ effect_id: effectId });
}
