/**
 * Queue `background-check-orders`: orders the background check an application's listing
 * policy asks for (SubmissionBackgroundChecks), off the apply request and the pipeline delivery.
 *
 * Idempotent: the job id is `bgc-submission-<application id>`; the check is stored under
 * (organization, action, application id) and found before anything is ordered; the vendor
 * step's action run carries an idempotency key of the same three, so a retry after the
 * vendor answered orders nothing twice. A vendor outage (`upstream`) retries with backoff, and
 * on the last attempt fails the run (retries exhausted); anything a retry cannot fix (no
 * connection, a refused order) ends the job. Either way the failed run says why, and the
 * application's check reads `unverified` with `vendor_order_failed` (SubmissionBackgroundChecks).
 */
import { inject, injectable } from 'tsyringe';
import { isDomainError } from '../../../kernel/errors';
import { hasPrefix } from '../../../kernel/ids';
import { UnrecoverableJobError, type JobContext, type JobProcessor } from '../../../kernel/job-queue';
import {
  SUBMISSION_CHECKS_QUEUE,
  SubmissionBackgroundChecks,
  type SubmissionCheckJob,
  type SubmissionOrderOutcome,
} from '../domain/submission-background-checks';

@injectable()
export class SubmissionCheckOrderProcessor implements JobProcessor<Partial<SubmissionCheckJob>> {
  readonly queue = SUBMISSION_CHECKS_QUEUE;

  constructor(@inject(SubmissionBackgroundChecks) private readonly checks: SubmissionBackgroundChecks) {}

  async process(job: JobContext<Partial<SubmissionCheckJob>>): Promise<SubmissionOrderOutcome> {
    const { organization_id, application_id } = job.data ?? {};
    if (typeof organization_id !== 'string' || typeof application_id !== 'string' || !hasPrefix(application_id, 'app')) {
      throw new UnrecoverableJobError('background-check-orders job without organization_id and application_id');
    }
    try {
      return await this.checks.order(organization_id, application_id, job.attempt >= job.maxAttempts);
    } catch (error) {
      if (isDomainError(error) && error.kind !== 'upstream') throw new UnrecoverableJobError(`${error.code}: ${error.message}`);
      throw error;
    }
  }
}
