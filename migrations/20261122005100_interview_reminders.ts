import type { Knex } from 'knex';

/**
 * Interview reminders: one row per organization, interview and channel, naming the job
 * (deterministic id with a revision) that is due to send it. Rescheduling and
 * cancelling find the pending job here.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_interview_reminders', (t) => {
    t.text('organization_id').notNullable();
    t.text('interview_id').notNullable();
    t.text('channel').notNullable();
    t.text('status').notNullable();
    t.integer('revision').notNullable();
    t.text('job_id').notNullable();
    t.timestamp('starts_at', { useTz: true }).notNullable();
    t.timestamp('remind_at', { useTz: true }).notNullable();
    t.jsonb('details').notNullable();
    t.text('reason');
    t.text('delivery_id');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.primary(['organization_id', 'interview_id', 'channel']);
    t.index(['organization_id', 'channel', 'status']);
    t.check("channel in ('email', 'sms')", [], 'hi_interview_reminders_channel');
    t.check("status in ('scheduled', 'sent', 'canceled', 'skipped')", [], 'hi_interview_reminders_status');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_interview_reminders');
}
