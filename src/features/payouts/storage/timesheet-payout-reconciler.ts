/**
 * Approved timesheets whose payout job never reached the queue (the process died between the
 * approval's commit and the enqueue, or Redis was down then): approved past the sweep's bound,
 * within the last 30 days, with pay, in an organization licensed for `payouts.instant_pay`, and
 * with neither a payout under the reference `timesheet:<id>` nor the recorded failure run
 * `timesheet-payout-<id>` (a worker that cannot be paid fails once, not at every sweep). The
 * job runs under its deterministic id; its payout's unique reference pays the timesheet once.
 */
import { inject, injectable } from 'tsyringe';
import type { OutboxMessage } from '../../../kernel/outbox';
import type { Database } from '../../../platform/database/database';
import { DATABASE } from '../../../platform/database/tokens';
import type { Reconciler } from '../../operations/domain/reconciler';
import { INSTANT_PAY_ACTION } from '../domain/payout';
import { TIMESHEET_PAYOUT_QUEUE, timesheetPayoutJobId, type TimesheetPayoutJob } from '../jobs/timesheet-payout';

/** Older approvals are left alone: an organization that licensed instant pay later is not paid its history by surprise. */
const LOOKBACK_MS = 30 * 86_400_000;

@injectable()
export class TimesheetPayoutReconciler implements Reconciler {
  readonly name = 'timesheet_payouts';

  constructor(@inject(DATABASE) private readonly db: Database) {}

  async findStuck(olderThan: Date, limit: number): Promise<OutboxMessage[]> {
    const rows: { id: string; organization_id: string }[] = await this.db('hi_timesheets as t')
      .select('t.id', 't.organization_id')
      .where('t.status', 'approved')
      .where('t.decided_at', '<', olderThan)
      .where('t.decided_at', '>=', new Date(olderThan.getTime() - LOOKBACK_MS))
      .where('t.pay_cents', '>', 0)
      .whereExists((q) =>
        q
          .select(this.db.raw('1'))
          .from('hi_licenses as l')
          .whereRaw('l.organization_id = t.organization_id')
          .where({ 'l.action_key': INSTANT_PAY_ACTION, 'l.status': 'active' }),
      )
      .whereNotExists((q) =>
        q.select(this.db.raw('1')).from('hi_payouts as p').whereRaw('p.organization_id = t.organization_id').whereRaw(`p.reference = 'timesheet:' || t.id`),
      )
      .whereNotExists((q) =>
        q
          .select(this.db.raw('1'))
          .from('hi_action_runs as r')
          .whereRaw('r.organization_id = t.organization_id')
          .whereRaw(`r.idempotency_key = 'timesheet-payout-' || t.id`),
      )
      .orderBy('t.decided_at')
      .limit(limit);
    return rows.map((row) => ({
      queue: TIMESHEET_PAYOUT_QUEUE,
      name: 'pay',
      data: { organizationId: row.organization_id, timesheetId: row.id } satisfies TimesheetPayoutJob,
      jobId: timesheetPayoutJobId(row.id),
    }));
  }
}
