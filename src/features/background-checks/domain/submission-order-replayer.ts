/**
 * Retrying an automatic order's run (POST /v1/integrations/runs/{id}/retry, after the
 * organization fixed its vendor connection): the run's idempotency key names the
 * application, whose order job is queued again under its fixed id; the reopened run reads
 * `retrying`, so the application's check is `pending` again until the vendor answers.
 * For the sweep: a run left `running`/`retrying` (its job gave up during an outage, or Redis
 * lost it) names the same job. Runs of the `background_check.requested` hook (a host check
 * id, not an application) are not replayed here.
 */
import { hasPrefix } from '../../../kernel/ids';
import type { JobQueue } from '../../../kernel/job-queue';
import type { OutboxMessage } from '../../../kernel/outbox';
import type { ActionRun } from '../../action-runs/domain/action-run';
import type { RunReplayer } from '../../action-runs/domain/run-retries';
import type { ProfileApplication } from '../../applications/domain/application';
import { ROUTE_VERIFICATION_ACTION, RUN_CHECK_ACTION } from './background-check';
import { orderIdempotencyKey } from './background-check-service';
import { SUBMISSION_CHECKS_QUEUE, submissionCheckJobId, type SubmissionCheckJob } from './submission-background-checks';

const ANY_TIME = new Date('9999-01-01T00:00:00Z');

export class SubmissionOrderReplayer implements RunReplayer {
  readonly actions = [RUN_CHECK_ACTION, ROUTE_VERIFICATION_ACTION];

  constructor(
    private readonly queue: () => JobQueue,
    private readonly application: (applicationId: string) => Promise<ProfileApplication | undefined>,
  ) {}

  async jobsFor(runs: readonly ActionRun[]): Promise<OutboxMessage[]> {
    const messages: OutboxMessage[] = [];
    for (const run of runs) {
      const job = await this.jobOf(run);
      if (job) messages.push({ queue: SUBMISSION_CHECKS_QUEUE, name: 'order', data: job, jobId: submissionCheckJobId(job.application_id) });
    }
    return messages;
  }

  async replay(run: ActionRun): Promise<boolean> {
    const job = await this.jobOf(run);
    if (!job) return false;
    await this.queue().requeue(SUBMISSION_CHECKS_QUEUE, 'order', job, submissionCheckJobId(job.application_id), ANY_TIME);
    return true;
  }

  /** The order job of an automatic order's run, while its application exists. */
  private async jobOf(run: ActionRun): Promise<SubmissionCheckJob | undefined> {
    const prefix = orderIdempotencyKey(run.organizationId, run.action, '');
    if (!run.idempotencyKey.startsWith(prefix)) return undefined;
    const applicationId = run.idempotencyKey.slice(prefix.length);
    if (!hasPrefix(applicationId, 'app')) return undefined;
    const application = await this.application(applicationId);
    if (!application || application.organizationId !== run.organizationId) return undefined;
    return { organization_id: run.organizationId, application_id: applicationId };
  }
}
