/**
 * Reminders still `scheduled` whose moment passed more than the bound ago: their job (the
 * one the row names) runs now; it acts only if the row still names it, so a superseded
 * revision stays harmless.
 */
import { inject, injectable } from 'tsyringe';
import { INTERVIEW_REMINDERS_QUEUE, type ReminderJob } from '../domain/interview-reminders';
import type { OutboxMessage } from '../../../kernel/outbox';
import type { Database } from '../../../platform/database/database';
import { DATABASE } from '../../../platform/database/tokens';
import type { Reconciler } from '../../operations/domain/reconciler';

@injectable()
export class InterviewReminderReconciler implements Reconciler {
  readonly name = 'interview_reminders';

  constructor(@inject(DATABASE) private readonly db: Database) {}

  async findStuck(olderThan: Date, limit: number): Promise<OutboxMessage[]> {
    const rows: { organization_id: string; interview_id: string; channel: ReminderJob['channel']; job_id: string }[] = await this.db('hi_interview_reminders')
      .select('organization_id', 'interview_id', 'channel', 'job_id')
      .where('status', 'scheduled')
      .where('remind_at', '<', olderThan)
      .orderBy('remind_at')
      .limit(limit);
    return rows.map((row) => ({
      queue: INTERVIEW_REMINDERS_QUEUE,
      name: 'remind',
      data: { organization_id: row.organization_id, interview_id: row.interview_id, channel: row.channel } satisfies ReminderJob,
      jobId: row.job_id,
    }));
  }
}
