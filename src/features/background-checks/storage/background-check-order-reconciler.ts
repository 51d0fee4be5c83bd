/**
 * Applications whose automatic background-check order job never ran (Redis lost it, or the
 * process died between the pipeline delivery and the enqueue): an application of a listing
 * with a background-check policy that was in force when it was delivered (the policy's last
 * change is not later than the delivery: a policy added or edited afterwards orders nothing
 * for older applications by surprise), delivered past the sweep's bound and within the last
 * 30 days, with a contact email, in an organization holding the policy's action
 * (`run_check`, or `route_verification` for a driver), with neither a background check stored
 * under the application id nor a recorded failed order (`hi_background_check_order_failures`,
 * or its failed run: a refused order fails once and
 * says why on the application; a retry of that run is the organization's, not the sweep's).
 * The job runs under its deterministic id `bgc-submission-<application>`; the check found by
 * (organization, action, application id) and the run's idempotency key order it once.
 */
import { inject, injectable } from 'tsyringe';
import type { OutboxMessage } from '../../../kernel/outbox';
import type { Database } from '../../../platform/database/database';
import { DATABASE } from '../../../platform/database/tokens';
import type { Reconciler } from '../../operations/domain/reconciler';
import { ROUTE_VERIFICATION_ACTION, RUN_CHECK_ACTION } from '../domain/background-check';
import { SUBMISSION_CHECKS_QUEUE, submissionCheckJobId, type SubmissionCheckJob } from '../domain/submission-background-checks';

const LOOKBACK_MS = 30 * 86_400_000;

@injectable()
export class BackgroundCheckOrderReconciler implements Reconciler {
  readonly name = 'background_check_orders';

  constructor(@inject(DATABASE) private readonly db: Database) {}

  async findStuck(olderThan: Date, limit: number): Promise<OutboxMessage[]> {
    // The policy's action, as policyAction() decides it.
    const action = `(case when (p.policy::jsonb ->> 'purpose') = 'driver' then ? else ? end)`;
    const actions = [ROUTE_VERIFICATION_ACTION, RUN_CHECK_ACTION];
    const rows: { id: string; organization_id: string }[] = await this.db('hi_profile_applications as a')
      .join('hi_listing_background_checks as p', (j) => j.on('p.organization_id', 'a.organization_id').andOn('p.listing_id', 'a.listing_id'))
      .select('a.id', 'a.organization_id')
      .whereNotNull('a.contact_email')
      .where('a.delivered_at', '<', olderThan)
      .where('a.delivered_at', '>=', new Date(olderThan.getTime() - LOOKBACK_MS))
      .whereRaw('p.updated_at <= a.delivered_at')
      .whereExists((q) =>
        q
          .select(this.db.raw('1'))
          .from('hi_licenses as l')
          .whereRaw('l.organization_id = a.organization_id')
          .where('l.status', 'active')
          .whereRaw(`l.action_key = ${action}`, actions),
      )
      .whereNotExists((q) =>
        q.select(this.db.raw('1')).from('hi_background_checks as b').whereRaw('b.organization_id = a.organization_id').whereRaw('b.host_check_id = a.id'),
      )
      .whereNotExists((q) =>
        q
          .select(this.db.raw('1'))
          .from('hi_background_check_order_failures as f')
          .whereRaw('f.organization_id = a.organization_id')
          .whereRaw('f.application_id = a.id'),
      )
      .whereNotExists((q) =>
        q
          .select(this.db.raw('1'))
          .from('hi_action_runs as r')
          .whereRaw('r.organization_id = a.organization_id')
          .whereRaw(`r.idempotency_key = 'bgc-order-' || a.organization_id || '-' || ${action} || '-' || a.id`, actions)
          .where('r.status', 'failed'),
      )
      .orderBy('a.delivered_at')
      .limit(limit);
    return rows.map((row) => ({
      queue: SUBMISSION_CHECKS_QUEUE,
      name: 'order',
      data: { organization_id: row.organization_id, application_id: row.id } satisfies SubmissionCheckJob,
      jobId: submissionCheckJobId(row.id),
    }));
  }
}
