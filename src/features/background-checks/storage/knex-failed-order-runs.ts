/**
 * Failed automatic orders on knex: the failed order runs by idempotency key (from the action
 * runs' table), the failures recorded per application (`hi_background_check_order_failures`,
 * kept while the application is: failed runs are pruned, the failure is not), and failing a
 * run whose job gave up.
 */
import type { Database } from '../../../platform/database/database';
import type { FailedOrderRun, FailedOrderRuns, OrderFailures } from '../domain/submission-background-checks';

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

export const knexOrderFailures = (db: () => Database): OrderFailures => ({
  async record(organizationId, applicationId, action, run, at) {
    const row = { run_id: run.runId, connector: run.connector, error_code: run.errorCode, action, failed_at: at };
    await db()('hi_background_check_order_failures')
      .insert({ organization_id: organizationId, application_id: applicationId, ...row })
      .onConflict(['organization_id', 'application_id'])
      .merge(Object.keys(row));
  },
  async of(organizationId, applicationIds) {
    if (applicationIds.length === 0) return new Map();
    // Not while its run is retried (`retrying`/`running`) or went through; a pruned run leaves the failure standing.
    const rows: { application_id: string; run_id: string; connector: string; error_code: string | null; action: string }[] = await db()(
      'hi_background_check_order_failures as f',
    )
      .leftJoin('hi_action_runs as r', (j) => j.on('r.organization_id', 'f.organization_id').andOn('r.id', 'f.run_id'))
      .where('f.organization_id', organizationId)
      .whereIn('f.application_id', applicationIds)
      .where((q) => q.whereNull('r.id').orWhere('r.status', 'failed'))
      .select('f.application_id', 'f.run_id', 'f.connector', 'f.error_code', 'f.action');
    return new Map(rows.map((r) => [r.application_id, { action: r.action, run: { runId: r.run_id, connector: r.connector, errorCode: r.error_code } }]));
  },
});

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
