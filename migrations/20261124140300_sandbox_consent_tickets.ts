import type { Knex } from 'knex';

/**
 * Sandbox consent tickets are single-use: the first POST of a consent form claims its
 * ticket id here; a replayed form finds it taken. Rows go once the ticket has expired.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_sandbox_consent_tickets', (t) => {
    t.text('id').primary();
    t.timestamp('expires_at', { useTz: true }).notNullable().index();
  });
  await knex.schema.alterTable('hi_sandbox_authorization_codes', (t) => {
    t.index(['expires_at'], 'hi_sandbox_authorization_codes_expires');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hi_sandbox_authorization_codes', (t) => {
    t.dropIndex(['expires_at'], 'hi_sandbox_authorization_codes_expires');
  });
  await knex.schema.dropTable('hi_sandbox_consent_tickets');
}
