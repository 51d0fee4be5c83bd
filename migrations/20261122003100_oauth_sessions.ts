import type { Knex } from 'knex';

/** express-session rows of the connect flow, so any API process can finish a flow another began. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_oauth_sessions', (t) => {
    t.text('sid').primary();
    t.jsonb('data').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_oauth_sessions');
}
