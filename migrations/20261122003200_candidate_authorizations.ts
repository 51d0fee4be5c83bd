import type { Knex } from 'knex';

/** A candidate's OAuth grant to one organization; tokens are AES-256-GCM ciphertexts. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_candidate_authorizations', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('profile_user_id').notNullable();
    t.text('listing_id').notNullable();
    t.text('access_token_ciphertext').notNullable();
    t.text('refresh_token_ciphertext');
    t.timestamp('access_token_expires_at', { useTz: true });
    t.timestamp('authorized_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['organization_id', 'profile_user_id'], { indexName: 'hi_candidate_authorizations_org_user' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_candidate_authorizations');
}
