import type { Knex } from 'knex';

/**
 * What the sandbox connectors would have sent (email, SMS, meetings, signature
 * envelopes, HRIS records): one row per idempotency key, so a hook or job that runs
 * twice sends once, and the row shows what was sent.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_connector_deliveries', (t) => {
    t.text('id').primary();
    t.text('idempotency_key').notNullable().unique();
    t.text('organization_id').notNullable();
    t.text('connector').notNullable();
    t.text('action_key').notNullable();
    t.jsonb('request').notNullable();
    t.jsonb('response').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['organization_id', 'connector']);
    t.check("connector in ('email', 'sms', 'video_meetings', 'esign', 'hris')", [], 'hi_connector_deliveries_connector');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_connector_deliveries');
}
