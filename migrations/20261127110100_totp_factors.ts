import type { Knex } from 'knex';

/**
 * TOTP factors (`sms.two_factor_auth`, channel `totp`): one per organization and identity
 * (an HMAC of the identity the host names, like verification destinations). The shared
 * secret is sealed with a key derived from SECRET_KEY, bound to organization and factor;
 * `last_step` refuses a code used once, `failed_attempts` / `locked_until` limit guessing.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_totp_factors', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('identity_hash').notNullable();
    t.text('secret_ciphertext').notNullable();
    t.text('status').notNullable();
    t.integer('failed_attempts').notNullable().defaultTo(0);
    t.timestamp('locked_until', { useTz: true });
    t.bigInteger('last_step');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['organization_id', 'identity_hash'], { indexName: 'hi_totp_factors_identity' });
    t.check("status in ('unverified', 'verified')", [], 'hi_totp_factors_status');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('hi_totp_factors');
}
