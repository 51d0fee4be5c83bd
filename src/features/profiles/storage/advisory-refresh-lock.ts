/**
 * The refresh lock across processes: a transaction-scoped PostgreSQL advisory lock on the
 * key, held while the work runs and released by the commit (or by the server if the
 * process dies, since the connection goes with it). Callers in one process queue in
 * memory first, so a burst of them holds one pool connection, not one each.
 */
import type { RefreshLock } from '../domain/refresh-lock';
import type { Database } from '../../../platform/database/database';
import { InProcessLock } from './in-process-lock';

export class AdvisoryRefreshLock implements RefreshLock {
  private readonly local = new InProcessLock();

  constructor(private readonly db: Database) {}

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    return this.local.run(key, () =>
      this.db.transaction(async (trx) => {
        await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`hiring-integrations:${key}`]);
        return work();
      }),
    );
  }
}
