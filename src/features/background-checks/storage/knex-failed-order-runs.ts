/** The failed order runs among some idempotency keys, from the action runs' table (one query). */
import type { Database } from '../../../platform/database/database';
import type { FailedOrderRun, FailedOrderRuns } from '../domain/submission-background-checks';

export const knexFailedOrderRuns =
  (db: () => Database): FailedOrderRuns =>
  async (organizationId, idempotencyKeys) => {
    if (idempotencyKeys.length === 0) return [];
    const rows: { id: string; idempotency_key: string; connector: string; error_code: string | null }[] = await db()('hi_action_runs')
      .where({ organization_id: organizationId, status: 'failed' })
      .whereIn('idempotency_key', idempotencyKeys)
      .select('id', 'idempotency_key', 'connector', 'error_code');
    return rows.map((r): FailedOrderRun => ({ idempotencyKey: r.idempotency_key, runId: r.id, connector: r.connector, errorCode: r.error_code }));
  };

/**
 * An order run whose job exhausted its retries (the vendor stayed out of reach): `retrying` →
 * `failed` with the last attempt's code, so the organization sees it failed and can retry it.
 * Answers the run's id, or undefined when it was not `retrying` (another worker got there first).
 */
export const knexExhaustOrderRun =
  (db: () => Database) =>
  async (organizationId: string, idempotencyKey: string, at: Date): Promise<string | undefined> => {
    const [row]: { id: string }[] = await db()('hi_action_runs')
      .where({ organization_id: organizationId, idempotency_key: idempotencyKey, status: 'retrying' })
      .update({ status: 'failed', completed_at: at, updated_at: at })
      .returning('id');
    return row?.id;
  };
