/**
 * express-session's store for the connect flow, on the plugin's database: the callback
 * may reach another API process than the one that started the flow. Expired rows are
 * ignored on read and swept now and then on write.
 */
import session from 'express-session';
import type { Database } from '../../../platform/database/database';

const SWEEP_EVERY_WRITES = 100;

export class KnexSessionStore extends session.Store {
  private writes = 0;

  constructor(
    private readonly db: Database,
    private readonly defaultTtlMs: number,
  ) {
    super();
  }

  override get(sid: string, callback: (err: unknown, session?: session.SessionData | null) => void): void {
    this.db('hi_oauth_sessions')
      .where({ sid })
      .where('expires_at', '>', new Date())
      .first()
      .then(
        (row) => callback(null, row ? (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) : null),
        (error) => callback(error),
      );
  }

  override set(sid: string, data: session.SessionData, callback?: (err?: unknown) => void): void {
    const expiresAt = data.cookie?.expires ? new Date(data.cookie.expires) : new Date(Date.now() + this.defaultTtlMs);
    this.db('hi_oauth_sessions')
      .insert({ sid, data: JSON.stringify(data), expires_at: expiresAt })
      .onConflict('sid')
      .merge()
      .then(() => this.maybeSweep())
      .then(
        () => callback?.(),
        (error) => callback?.(error),
      );
  }

  override destroy(sid: string, callback?: (err?: unknown) => void): void {
    this.db('hi_oauth_sessions')
      .where({ sid })
      .delete()
      .then(
        () => callback?.(),
        (error) => callback?.(error),
      );
  }

  override touch(sid: string, data: session.SessionData, callback?: () => void): void {
    this.set(sid, data, () => callback?.());
  }

  private async maybeSweep(): Promise<void> {
    this.writes = (this.writes + 1) % SWEEP_EVERY_WRITES;
    if (this.writes === 0) await this.db('hi_oauth_sessions').where('expires_at', '<=', new Date()).delete();
  }
}
