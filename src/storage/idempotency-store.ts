import { inject, injectable } from 'tsyringe';
import { IDEMPOTENCY_TTL_SECONDS, type BeginResult, type IdempotencyStore, type StoredResponse } from '../http/idempotency';
import type { Database } from './database';
import { DATABASE } from './tokens';

const ABANDONED_AFTER_MS = 60_000;

@injectable()
export class KnexIdempotencyStore implements IdempotencyStore {
  constructor(@inject(DATABASE) private readonly db: Database) {}

  async begin(scope: string, key: string, requestHash: string): Promise<BeginResult> {
    const now = new Date();
    const expired = new Date(now.getTime() - IDEMPOTENCY_TTL_SECONDS * 1000);
    await this.db('hi_idempotency_keys').where({ scope, key }).where('created_at', '<', expired).delete();
    const inserted = await this.db('hi_idempotency_keys')
      .insert({ scope, key, request_hash: requestHash, created_at: now })
      .onConflict(['scope', 'key'])
      .ignore()
      .returning('key');
    if (inserted.length > 0) return { state: 'started' };
    const row = await this.db('hi_idempotency_keys').where({ scope, key }).first();
    if (!row) return this.begin(scope, key, requestHash);
    if (row.request_hash !== requestHash) return { state: 'mismatch' };
    if (row.response_status === null) {
      // A request that died mid-flight (process killed) must not block its key for a day.
      const abandoned = new Date(row.created_at).getTime() < now.getTime() - ABANDONED_AFTER_MS;
      if (!abandoned) return { state: 'in_progress' };
      await this.db('hi_idempotency_keys').where({ scope, key }).whereNull('response_status').delete();
      return this.begin(scope, key, requestHash);
    }
    const body = typeof row.response_body === 'string' ? JSON.parse(row.response_body) : row.response_body;
    return { state: 'replay', response: { status: row.response_status, body } };
  }

  async complete(scope: string, key: string, response: StoredResponse): Promise<void> {
    await this.db('hi_idempotency_keys')
      .where({ scope, key })
      .update({ response_status: response.status, response_body: JSON.stringify(response.body ?? null), completed_at: new Date() });
  }

  async release(scope: string, key: string): Promise<void> {
    await this.db('hi_idempotency_keys').where({ scope, key }).whereNull('response_status').delete();
  }
}
