import type { Knex } from 'knex';

/**
 * Consent records: one row per authorization a candidate gave an organization (a
 * re-authorization adds a row; history is kept), saying what they agreed to share, with
 * whom (organization, listing), when and under which scopes, and when it ended: revoked at
 * the provider (a refresh answered invalid_grant).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_candidate_consents', (t) => {
    t.text('id').primary();
    t.bigIncrements('seq', { primaryKey: false });
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('profile_user_id').notNullable();
    t.text('listing_id').notNullable();
    t.text('listing_title').notNullable();
    t.text('organization_name').notNullable();
    t.jsonb('scopes').notNullable();
    t.text('statement').notNullable();
    t.timestamp('granted_at', { useTz: true }).notNullable();
    t.timestamp('revoked_at', { useTz: true });
    t.text('revoked_reason');
    t.index(['organization_id', 'profile_user_id', 'seq']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_candidate_consents');
}
