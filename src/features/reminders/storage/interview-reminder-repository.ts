/** hi_interview_reminders through knex (InterviewReminderRepository). */
import type { InterviewReminder, InterviewReminderRepository, ReminderChannel, ReminderDetails, ReminderStatus } from '../domain/interview-reminders';
import type { OutboxMessage } from '../../../kernel/outbox';
import type { Database } from '../../../platform/database/database';
import { writeOutbox } from '../../events/storage/outbox-writer';
import { onlyJobMessages, outboxRows } from '../../../platform/queue/outbox-rows';
import type { Knex } from 'knex';
import { GroupCommit } from '../../../kernel/group-commit';

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

/** The columns read, named (a prepared statement's result must not change shape when a migration adds one). */
const COLUMNS = 'organization_id, interview_id, channel, status, revision, job_id, starts_at, remind_at, details, reason, delivery_id, updated_at';

const INSERT_COLUMNS = [
  'organization_id',
  'interview_id',
  'channel',
  'status',
  'revision',
  'job_id',
  'starts_at',
  'remind_at',
  'details',
  'reason',
  'delivery_id',
  'created_at',
  'updated_at',
] as const;

const rowOf = (r: InterviewReminder) => ({
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
});

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

interface Settlement {
  organizationId: string;
  interviewId: string;
  channel: ReminderChannel;
  jobId: string;
  status: Exclude<ReminderStatus, 'scheduled'>;
  reason: string | null;
  deliveryId?: string;
  at: Date;
}

export class KnexInterviewReminderRepository implements InterviewReminderRepository {
  /** Every reminder job ends with a settlement; those of concurrent jobs share one statement. */
  private readonly settlements = new GroupCommit<Settlement, boolean>((_, items) => this.settleBatch(items));

  constructor(private readonly db: Database) {}

  async find(organizationId: string, interviewId: string, channel: ReminderChannel): Promise<InterviewReminder | undefined> {
    // Every reminder job reads its row: a named prepared statement (parsed and planned once per connection, no query builder).
    const { rows } = (await this.db
      .raw(`select ${COLUMNS} from hi_interview_reminders where organization_id = ? and interview_id = ? and channel = ? limit 1`, [
        organizationId,
        interviewId,
        channel,
      ])
      .options({ name: 'hi_reminder_find_v1' })) as { rows: Row[] };
    return rows[0] ? toDomain(rows[0]) : undefined;
  }

  /**
   * One statement: the row is inserted only if its (organization, interview, channel) has
   * none, and the jobs' outbox rows are written from what was inserted (nothing when the
   * row existed), atomically.
   */
  async insertNew(r: InterviewReminder, messages: readonly OutboxMessage[]): Promise<boolean> {
    if (!onlyJobMessages(messages) || messages.length === 0) throw new Error('insertNew writes the reminder with its job messages');
    const row = rowOf(r);
    const outbox = outboxRows(messages);
    // Every hook of a first-seen interview runs this: a named prepared statement, its text fixed
    // but for the number of job messages (parsed and planned once per connection, no query builder).
    const { rows } = (await this.db
      .raw(
        `WITH reminder AS (
           INSERT INTO hi_interview_reminders (${INSERT_COLUMNS.join(', ')})
           VALUES (${INSERT_COLUMNS.map(() => '?').join(', ')})
           ON CONFLICT (organization_id, interview_id, channel) DO NOTHING
           RETURNING job_id)
         INSERT INTO hi_outbox (queue, name, job_id, data, delay_ms)
         SELECT v.queue, v.name, v.job_id, v.data::jsonb, v.delay_ms FROM reminder,
           (VALUES ${outbox.map(() => '(?::text, ?::text, ?::text, ?::text, ?::int)').join(', ')}) AS v(queue, name, job_id, data, delay_ms)
         RETURNING job_id`,
        [...INSERT_COLUMNS.map((c) => row[c]), ...outbox.flatMap((o) => [o.queue, o.name, o.job_id, o.data, o.delay_ms])],
      )
      .options({ name: `hi_reminder_insert_new_v1_${outbox.length}` })) as { rows: unknown[] };
    return rows.length > 0;
  }

  async save(r: InterviewReminder, messages: readonly OutboxMessage[] = []): Promise<void> {
    const upsert = (db: Knex | Knex.Transaction) =>
      db('hi_interview_reminders')
        .insert(rowOf(r))
        .onConflict(['organization_id', 'interview_id', 'channel'])
        .merge(['status', 'revision', 'job_id', 'starts_at', 'remind_at', 'details', 'reason', 'delivery_id', 'updated_at']);
    // Job messages (the reminder's job): one statement, a data-modifying WITH, so the row and
    // its job are written together or not at all, in one round trip instead of four.
    if (onlyJobMessages(messages)) {
      if (messages.length === 0) await upsert(this.db);
      else await this.db.with('reminder', upsert(this.db)).insert(outboxRows(messages)).into('hi_outbox');
      return;
    }
    await this.db.transaction(async (trx) => {
      await upsert(trx);
      await writeOutbox(trx, messages);
    });
  }

  settle(
    organizationId: string,
    interviewId: string,
    channel: ReminderChannel,
    jobId: string,
    change: { status: Exclude<ReminderStatus, 'scheduled'>; reason: string | null; deliveryId?: string; at: Date },
  ): Promise<boolean> {
    return this.settlements.submit('settle', { organizationId, interviewId, channel, jobId, ...change });
  }

  /** Settlements of concurrent reminder jobs in one conditional UPDATE … FROM (VALUES …): each row only if still `scheduled` under its job. */
  private async settleBatch(items: Settlement[]): Promise<boolean[]> {
    // Named per batch size (at most GroupCommit's 100): parsed and planned once per connection and size.
    const { rows } = (await this.db
      .raw(
        `UPDATE hi_interview_reminders r
       SET status = v.status, reason = v.reason, delivery_id = v.delivery_id, updated_at = v.at
       FROM (VALUES ${items.map(() => '(?::text, ?::text, ?::text, ?::text, ?::text, ?::text, ?::text, ?::timestamptz)').join(', ')})
         AS v(organization_id, interview_id, channel, job_id, status, reason, delivery_id, at)
       WHERE r.organization_id = v.organization_id AND r.interview_id = v.interview_id AND r.channel = v.channel
         AND r.job_id = v.job_id AND r.status = 'scheduled'
       RETURNING r.job_id`,
        items.flatMap((i) => [i.organizationId, i.interviewId, i.channel, i.jobId, i.status, i.reason, i.deliveryId ?? null, i.at]),
      )
      .options({ name: `hi_reminder_settle_v1_${items.length}` })) as { rows: { job_id: string }[] };
    const settled = new Set(rows.map((row) => row.job_id));
    // A job id names one (organization, interview, channel, revision): two items of one job settle it once.
    return items.map((i) => settled.delete(i.jobId));
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
