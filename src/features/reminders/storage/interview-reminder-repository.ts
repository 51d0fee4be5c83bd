/** hi_interview_reminders through knex (InterviewReminderRepository). */
import type { InterviewReminder, InterviewReminderRepository, ReminderChannel, ReminderDetails, ReminderStatus } from '../domain/interview-reminders';
import type { OutboxMessage } from '../../../kernel/outbox';
import type { Database } from '../../../platform/database/database';
import { writeOutbox } from '../../events/storage/outbox-writer';

interface Row {
  organization_id: string;
  interview_id: string;
  channel: ReminderChannel;
  status: ReminderStatus;
  revision: number;
  job_id: string;
  starts_at: Date | string;
  remind_at: Date | string;
  details: ReminderDetails | string;
  reason: string | null;
  delivery_id: string | null;
  updated_at: Date | string;
}

const toDomain = (row: Row): InterviewReminder => ({
  organizationId: row.organization_id,
  interviewId: row.interview_id,
  channel: row.channel,
  status: row.status,
  revision: row.revision,
  jobId: row.job_id,
  startsAt: new Date(row.starts_at),
  remindAt: new Date(row.remind_at),
  details: typeof row.details === 'string' ? (JSON.parse(row.details) as ReminderDetails) : row.details,
  reason: row.reason,
  deliveryId: row.delivery_id,
  updatedAt: new Date(row.updated_at),
});

export class KnexInterviewReminderRepository implements InterviewReminderRepository {
  constructor(private readonly db: Database) {}

  async find(organizationId: string, interviewId: string, channel: ReminderChannel): Promise<InterviewReminder | undefined> {
    const row = await this.db<Row>('hi_interview_reminders').where({ organization_id: organizationId, interview_id: interviewId, channel }).first();
    return row ? toDomain(row) : undefined;
  }

  async save(r: InterviewReminder, messages: readonly OutboxMessage[] = []): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx('hi_interview_reminders')
        .insert({
          organization_id: r.organizationId,
          interview_id: r.interviewId,
          channel: r.channel,
          status: r.status,
          revision: r.revision,
          job_id: r.jobId,
          starts_at: r.startsAt,
          remind_at: r.remindAt,
          details: JSON.stringify(r.details),
          reason: r.reason,
          delivery_id: r.deliveryId,
          created_at: r.updatedAt,
          updated_at: r.updatedAt,
        })
        .onConflict(['organization_id', 'interview_id', 'channel'])
        .merge(['status', 'revision', 'job_id', 'starts_at', 'remind_at', 'details', 'reason', 'delivery_id', 'updated_at']);
      await writeOutbox(trx, messages);
    });
  }

  async settle(
    organizationId: string,
    interviewId: string,
    channel: ReminderChannel,
    jobId: string,
    change: { status: Exclude<ReminderStatus, 'scheduled'>; reason: string | null; deliveryId?: string; at: Date },
  ): Promise<boolean> {
    const updated = await this.db('hi_interview_reminders')
      .where({ organization_id: organizationId, interview_id: interviewId, channel, job_id: jobId, status: 'scheduled' })
      .update({ status: change.status, reason: change.reason, delivery_id: change.deliveryId ?? null, updated_at: change.at });
    return updated > 0;
  }

  async findScheduledByJob(organizationId: string, jobId: string): Promise<InterviewReminder | undefined> {
    const row = await this.db<Row>('hi_interview_reminders').where({ organization_id: organizationId, job_id: jobId, status: 'scheduled' }).first();
    return row ? toDomain(row) : undefined;
  }

  async reopenFailed(organizationId: string, jobId: string, at: Date): Promise<InterviewReminder | undefined> {
    const [row] = await this.db<Row>('hi_interview_reminders')
      .where({ organization_id: organizationId, job_id: jobId, status: 'failed' })
      .update({ status: 'scheduled', reason: null, updated_at: at })
      .returning('*');
    return row ? toDomain(row as Row) : undefined;
  }

  async listScheduled(organizationId: string, channel: ReminderChannel): Promise<InterviewReminder[]> {
    const rows = await this.db<Row>('hi_interview_reminders').where({ organization_id: organizationId, channel, status: 'scheduled' });
    return rows.map(toDomain);
  }
}
