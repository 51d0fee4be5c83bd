/**
 * Retrying a failed reminder run (POST /v1/integrations/runs/{id}/retry): the run's
 * idempotency key is the reminder's job id, so the reminder goes back to `scheduled` under
 * that very id and its job is queued again; the job performs one more attempt on the same
 * run. A reminder no longer failed under that job (rescheduled, canceled) is not replayed.
 */
import { inject, injectable } from 'tsyringe';
import { CLOCK, type Clock } from '../../../kernel/clock';
import { JOB_QUEUE, type JobQueue } from '../../../kernel/job-queue';
import type { OutboxMessage } from '../../../kernel/outbox';
import type { ActionRun } from '../../action-runs/domain/action-run';
import type { RunReplayer } from '../../action-runs/domain/run-retries';
import {
  INTERVIEW_REMINDER_REPOSITORY,
  INTERVIEW_REMINDERS_QUEUE,
  REMINDER_ACTIONS,
  type InterviewReminderRepository,
  type ReminderJob,
} from './interview-reminders';

/** Far enough ahead that the finished job of this id is always added again. */
const ANY_TIME = new Date('9999-01-01T00:00:00Z');

@injectable()
export class ReminderRunReplayer implements RunReplayer {
  readonly actions = Object.values(REMINDER_ACTIONS);

  constructor(
    @inject(INTERVIEW_REMINDER_REPOSITORY) private readonly reminders: InterviewReminderRepository,
    @inject(JOB_QUEUE) private readonly queue: JobQueue,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** A reminder run stuck `running`/`retrying`: its reminder's job, if the reminder still waits for it. */
  async jobsFor(runs: readonly ActionRun[]): Promise<OutboxMessage[]> {
    const messages: OutboxMessage[] = [];
    for (const run of runs) {
      const reminder = await this.reminders.findScheduledByJob(run.organizationId, run.idempotencyKey);
      if (!reminder) continue;
      const job: ReminderJob = { organization_id: reminder.organizationId, interview_id: reminder.interviewId, channel: reminder.channel };
      messages.push({ queue: INTERVIEW_REMINDERS_QUEUE, name: 'remind', data: job, jobId: reminder.jobId });
    }
    return messages;
  }

  async replay(run: ActionRun): Promise<boolean> {
    const reminder = await this.reminders.reopenFailed(run.organizationId, run.idempotencyKey, this.clock.now());
    if (!reminder) return false;
    const job: ReminderJob = { organization_id: reminder.organizationId, interview_id: reminder.interviewId, channel: reminder.channel };
    await this.queue.requeue(INTERVIEW_REMINDERS_QUEUE, 'remind', job, reminder.jobId, ANY_TIME);
    return true;
  }
}
