/**
 * Single use for the sandbox's signed consent tickets: the consent form's POST claims its
 * ticket id (an insert that only one request can win), so a replayed form is refused.
 * Expired claims and expired authorization codes are deleted as new ones arrive.
 */
import { deletedRows, type Database } from '../../../platform/database/database';

export class SandboxConsentTickets {
  constructor(private readonly db: Database) {}

  /** True for the first claim of `id`, false for every later one. */
  async claim(id: string, expiresAt: Date): Promise<boolean> {
    const inserted = await this.db('hi_sandbox_consent_tickets').insert({ id, expires_at: expiresAt }).onConflict('id').ignore().returning('id');
    return inserted.length > 0;
  }

  /** Deletes (a batch of) expired ticket claims and authorization codes; returns how many. */
  async pruneExpired(now = new Date()): Promise<number> {
    let deleted = 0;
    for (const table of ['hi_sandbox_consent_tickets', 'hi_sandbox_authorization_codes']) {
      const column = table === 'hi_sandbox_consent_tickets' ? 'id' : 'code_hash';
      const expired = this.db(table).select(column).where('expires_at', '<', now).limit(500);
      deleted += deletedRows(await this.db(table).whereIn(column, expired).delete());
    }
    return deleted;
  }
}
