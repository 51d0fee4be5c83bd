import type { Knex } from 'knex';

/**
 * Connections (an organization's account at a counterpart: settings plus credentials
 * sealed with the token cipher, bound to organization and connection) and action runs
 * (one row per connector step a gated handler performs: attempts, the counterpart's
 * reference, a stable error code). Reminders gain a `failed` status: a reminder that no
 * connector could send is failed, never `sent`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_connections', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('connector').notNullable();
    t.jsonb('settings').notNullable();
    t.text('credentials_ciphertext').notNullable();
    t.text('status').notNullable();
    t.text('last_test_code');
    t.text('last_test_message');
    t.timestamp('last_tested_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['organization_id', 'connector'], { indexName: 'hi_connections_organization_connector' });
    t.check("status in ('untested', 'verified', 'failed')", [], 'hi_connections_status');
  });
  await knex.schema.createTable('hi_action_runs', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('idempotency_key').notNullable();
    t.text('action').notNullable();
    t.text('step').notNullable();
    t.text('connector').notNullable();
    t.text('connection_id');
    t.boolean('livemode').notNullable();
    t.text('status').notNullable();
    t.jsonb('attempts').notNullable();
    t.text('reference');
    t.jsonb('result');
    t.text('error_code');
    t.text('error_message');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.timestamp('completed_at', { useTz: true });
    t.unique(['organization_id', 'idempotency_key'], { indexName: 'hi_action_runs_idempotency' });
    t.index(['organization_id', 'created_at', 'id'], 'hi_action_runs_listing');
    t.check("status in ('running', 'retrying', 'succeeded', 'failed')", [], 'hi_action_runs_status');
  });
  await knex.raw('alter table hi_interview_reminders drop constraint hi_interview_reminders_status');
  await knex.raw(
    "alter table hi_interview_reminders add constraint hi_interview_reminders_status check (status in ('scheduled', 'sent', 'canceled', 'skipped', 'failed'))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("update hi_interview_reminders set status = 'skipped' where status = 'failed'");
  await knex.raw('alter table hi_interview_reminders drop constraint hi_interview_reminders_status');
  await knex.raw(
    "alter table hi_interview_reminders add constraint hi_interview_reminders_status check (status in ('scheduled', 'sent', 'canceled', 'skipped'))",
  );
  await knex.schema.dropTable('hi_action_runs');
  await knex.schema.dropTable('hi_connections');
}
