import type { Knex } from 'knex';

/** The sandbox provider's authorization codes: single use, short-lived, bound to PKCE. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_sandbox_authorization_codes', (t) => {
    t.text('code_hash').primary();
    t.text('client_id').notNullable();
    t.text('redirect_uri').notNullable();
    t.text('code_challenge').notNullable();
    t.text('user_id').notNullable();
    t.text('scope').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_sandbox_authorization_codes');
}
