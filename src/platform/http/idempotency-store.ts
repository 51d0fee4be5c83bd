import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { inject, injectable } from 'tsyringe';
import { IDEMPOTENCY_TTL_SECONDS, withoutSecrets, type BeginResult, type IdempotencyStore, type StoredResponse } from './idempotency';
import { deletedRows, type Database } from '../database/database';
import { runWithIdempotencyKey } from './idempotency-effect';
import { DATABASE } from '../database/tokens';

/**
 * How long a request holds its key without renewing: a heartbeat renews it every second
 * (IDEMPOTENCY_HEARTBEAT_MS), so a key whose process died is free three seconds later.
 * Leases are measured on the database's clock, so processes' clocks need not agree.
 */
export const IDEMPOTENCY_LEASE_MS = 3_000;
export const IDEMPOTENCY_HEARTBEAT_MS = 1_000;

interface KeyRow {
  /** Seconds left on the lease by the database's clock (0 when lapsed or none). */
  lease_seconds: number | string;
  request_hash: string;
  response_status: number | null;
  response_body: unknown;
  created_at: Date;
  owner: string | null;
  locked_until: Date | null;
  effect_id: string | null;
}

@injectable()
export class KnexIdempotencyStore implements IdempotencyStore {
  /** This process; a lease owner is `<instance>:<attempt>`. */
  private readonly instance = randomBytes(6).toString('hex');
  /** Requests of this process that hold their key right now: scope + key → owner. */
  private readonly held = new Map<string, string>();

  constructor(@inject(DATABASE) private readonly db: Database) {}

  async begin(scope: string, key: string, requestHash: string, tries = 3): Promise<BeginResult> {
    const now = new Date();
    const expired = new Date(now.getTime() - IDEMPOTENCY_TTL_SECONDS * 1000);
    await this.db('hi_idempotency_keys').where({ scope, key }).where('created_at', '<', expired).delete();
    const owner = this.newOwner();
    const inserted = await this.db('hi_idempotency_keys')
      .insert({ scope, key, request_hash: requestHash, created_at: now, owner, locked_until: this.leaseEnd() })
      .onConflict(['scope', 'key'])
      .ignore()
      .returning('key');
    if (inserted.length > 0) return this.started(scope, key, owner);
    const row: KeyRow | undefined = await this.db('hi_idempotency_keys')
      .select('*', this.db.raw('greatest(0, extract(epoch from (locked_until - now())))::float8 as lease_seconds'))
      .where({ scope, key })
      .first();
    if (!row) return tries > 0 ? this.begin(scope, key, requestHash, tries - 1) : { state: 'in_progress', retryAfterSeconds: 1 };
    if (row.request_hash !== requestHash) return { state: 'mismatch' };
    if (row.response_status !== null) {
      const body = typeof row.response_body === 'string' ? JSON.parse(row.response_body) : row.response_body;
      return { state: 'replay', response: { status: row.response_status, body } };
    }
    if (row.effect_id) return { state: 'effect', effectId: row.effect_id };
    if (this.isHeld(row, scope, key)) return { state: 'in_progress', retryAfterSeconds: Number(row.lease_seconds) || 1 };
    // The attempt that held it finished without an answer or died: take the key over,
    // compare-and-swap on its owner so that of two retries at once only one runs.
    const taken = await this.db('hi_idempotency_keys')
      .where({ scope, key })
      .whereNull('response_status')
      .whereNull('effect_id')
      .where((q) => (row.owner === null ? q.whereNull('owner') : q.where('owner', row.owner)))
      .update({ owner, locked_until: this.leaseEnd(), created_at: now })
      .returning('key');
    if (taken.length > 0) return this.started(scope, key, owner);
    return tries > 0 ? this.begin(scope, key, requestHash, tries - 1) : { state: 'in_progress', retryAfterSeconds: 1 };
  }

  async hold<T>(scope: string, key: string, work: () => Promise<T>): Promise<T> {
    const owner = this.held.get(this.id(scope, key));
    const renew = setInterval(() => {
      if (!owner) return;
      this.db('hi_idempotency_keys')
        .where({ scope, key, owner })
        .update({ locked_until: this.leaseEnd() })
        .catch(() => undefined); // a missed renewal only lets a retry run sooner
    }, IDEMPOTENCY_HEARTBEAT_MS);
    renew.unref();
    try {
      return await runWithIdempotencyKey(scope, key, work);
    } finally {
      clearInterval(renew);
    }
  }

  async complete(scope: string, key: string, response: StoredResponse): Promise<void> {
    try {
      await this.db('hi_idempotency_keys')
        .where({ scope, key })
        .update({
          response_status: response.status,
          response_body: JSON.stringify(withoutSecrets(response.body ?? null)),
          completed_at: new Date(),
          owner: null,
          locked_until: null,
        });
    } finally {
      this.held.delete(this.id(scope, key));
    }
  }

  async release(scope: string, key: string): Promise<void> {
    const owner = this.held.get(this.id(scope, key));
    this.held.delete(this.id(scope, key));
    // A key whose request created something keeps it (a retry replays the creation).
    await this.db('hi_idempotency_keys').where({ scope, key }).whereNull('response_status').whereNull('effect_id').delete();
    if (owner) await this.db('hi_idempotency_keys').where({ scope, key, owner }).update({ owner: null, locked_until: null });
  }

  async prune(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - IDEMPOTENCY_TTL_SECONDS * 1000);
    const expired = this.db('hi_idempotency_keys').select('scope', 'key').where('created_at', '<', cutoff).limit(1000);
    return deletedRows(await this.db('hi_idempotency_keys').whereIn(['scope', 'key'], expired).delete());
  }

  /** Held by a live attempt: its lease runs, and if it is this process's, it is still running here. */
  private isHeld(row: KeyRow, scope: string, key: string): boolean {
    if (row.owner === null) return false;
    if (row.owner.startsWith(`${this.instance}:`)) return this.held.get(this.id(scope, key)) === row.owner;
    return Number(row.lease_seconds) > 0;
  }

  private started(scope: string, key: string, owner: string): BeginResult {
    this.held.set(this.id(scope, key), owner);
    return { state: 'started' };
  }

  private newOwner(): string {
    return `${this.instance}:${randomBytes(6).toString('hex')}`;
  }

  /** The end of a lease that starts now, by the database's clock. */
  private leaseEnd(): Knex.Raw {
    return this.db.raw(`now() + make_interval(secs => ?)`, [IDEMPOTENCY_LEASE_MS / 1000]);
  }

  private id(scope: string, key: string): string {
    return `${scope}\u0000${key}`;
  }
}
