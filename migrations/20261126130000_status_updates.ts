import type { Knex } from 'knex';

/**
 * Status updates (one row per host stage change: the host's change id makes a repeated
 * hook one message) and message unsubscribes (per organization, address and topic: an
 * unsubscribed candidate gets no more status updates).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_status_updates', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('change_id').notNullable();
    t.text('application_id').notNullable();
    t.text('recipient_name').notNullable();
    t.text('recipient_email').notNullable();
    t.text('language').notNullable();
    t.text('stage').notNullable();
    t.text('status').notNullable();
    t.text('reason');
    t.text('run_id');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['organization_id', 'change_id'], { indexName: 'hi_status_updates_organization_change' });
    t.index(['organization_id', 'recipient_email'], 'hi_status_updates_recipient');
    t.check("status in ('pending', 'sent', 'failed', 'suppressed')", [], 'hi_status_updates_status');
  });
  await knex.schema.createTable('hi_message_unsubscribes', (t) => {
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('email').notNullable();
    t.text('topic').notNullable();
    t.text('source_id');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.primary(['organization_id', 'email', 'topic']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_message_unsubscribes');
  await knex.schema.dropTable('hi_status_updates');
}
