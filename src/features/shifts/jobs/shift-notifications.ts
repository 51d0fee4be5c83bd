/**
 * Queue `shift-notifications`, two job names:
 * - `deliver` {organization_id, shift_id, sequence}: that version's invitation (iTIP REQUEST or
 *   CANCEL) and SMS. Connector outages throw and the queue retries with backoff; the action
 *   runs' idempotency keys make a retry send nothing twice.
 * - `remind` (delayed until `remind_at`) and `sweep` (the repeating sweep over due
 *   reminders, which also catches a delayed job Redis lost): the reminder, once per version.
 */
import { inject, injectable } from 'tsyringe';
import { UnrecoverableJobError, type JobContext, type JobProcessor } from '../../../kernel/job-queue';
import { SHIFT_NOTIFICATIONS_QUEUE, type ShiftNotificationJob } from '../domain/shift';
import { Shifts } from '../domain/shifts';

@injectable()
export class ShiftNotificationProcessor implements JobProcessor<Partial<ShiftNotificationJob>> {
  readonly queue = SHIFT_NOTIFICATIONS_QUEUE;

  constructor(@inject(Shifts) private readonly shifts: Shifts) {}

  async process(job: JobContext<Partial<ShiftNotificationJob>>): Promise<object> {
    if (job.name === 'sweep') return this.shifts.sweep();
    const { organization_id, shift_id, sequence } = job.data ?? {};
    if (typeof organization_id !== 'string' || typeof shift_id !== 'string' || typeof sequence !== 'number') {
      throw new UnrecoverableJobError('shift-notifications job without organization_id, shift_id and sequence');
    }
    if (job.name === 'remind') return { reminded: await this.shifts.remind(organization_id, shift_id) };
    if (job.name === 'deliver') return { outcome: await this.shifts.deliver({ organization_id, shift_id, sequence }) };
    throw new UnrecoverableJobError(`shift-notifications has no job named ${job.name}`);
  }
}
