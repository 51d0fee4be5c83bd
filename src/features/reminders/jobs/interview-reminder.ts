/**
 * Queue `interview-reminders`: sends one interview reminder (email or SMS) when it is due.
 *
 * Idempotent: the job id is `reminder-<channel>-<organization>-<interview>-<revision>`
 * (src/features/reminders/domain/interview-reminders.ts), so scheduling twice adds one job; the job
 * only acts while the reminder row is still `scheduled` under this very job id, and the
 * row moves to `sent` with a conditional update, so a second run finds nothing to do;
 * the connector is called with the job id as idempotency key, so a retry after a crash
 * between sending and recording sends once. The license is checked again when the job
 * runs (it may have been deactivated since): without it the reminder ends `skipped`.
 * Retries: connector (upstream) failures retry with the queue's backoff; a malformed job
 * is final.
 */
import { inject, injectable } from 'tsyringe';
import type { JobContext, JobProcessor } from '../../../kernel/job-queue';
import { INTERVIEW_REMINDERS_QUEUE, ReminderDelivery, type ReminderDeliveryOutcome, type ReminderJob } from '../domain/interview-reminders';

@injectable()
export class InterviewReminderProcessor implements JobProcessor<ReminderJob> {
  readonly queue = INTERVIEW_REMINDERS_QUEUE;

  constructor(@inject(ReminderDelivery) private readonly delivery: ReminderDelivery) {}

  async process(job: JobContext<ReminderJob>): Promise<{ outcome: ReminderDeliveryOutcome }> {
    return { outcome: await this.delivery.deliver(job.id, job.data) };
  }
}
