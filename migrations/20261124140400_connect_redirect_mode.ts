import type { Knex } from 'knex';

/**
 * Redirect mode made safe: the listing page URLs an organization registers as places the
 * connect flow may return to (matched exactly), and the single-use result codes that travel
 * in the returning URL's fragment instead of the result itself. A code is stored only as its
 * SHA-256 digest, with what the widget gets in exchange; no token is stored (the candidate
 * session is issued at the exchange).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hi_profile_apply_settings', (t) => {
    t.jsonb('return_urls').notNullable().defaultTo('[]');
  });
  await knex.schema.createTable('hi_connect_results', (t) => {
    t.text('code_hash').primary();
    t.text('origin').notNullable();
    t.text('client_state_hash').notNullable();
    t.jsonb('result').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable().index();
    t.timestamp('used_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_connect_results');
  await knex.schema.alterTable('hi_profile_apply_settings', (t) => {
    t.dropColumn('return_urls');
  });
}
