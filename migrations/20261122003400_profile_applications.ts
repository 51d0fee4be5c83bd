import type { Knex } from 'knex';

/** Submitted profile applications: one per organization, listing and candidate. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_profile_applications', (t) => {
    t.text('id').primary();
    // Cursor pagination order: ids are random, the sequence is not.
    t.bigIncrements('seq', { primaryKey: false });
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('listing_id').notNullable();
    t.text('profile_user_id').notNullable();
    t.text('status').notNullable();
    t.text('cover_letter');
    t.jsonb('answers').notNullable();
    t.text('candidate_name').notNullable();
    t.text('candidate_headline');
    t.jsonb('imported_skills').notNullable();
    t.jsonb('imported_credentials').notNullable();
    t.jsonb('experience_summary').notNullable();
    t.text('profile_url').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('delivered_at', { useTz: true });
    t.unique(['organization_id', 'listing_id', 'profile_user_id'], { indexName: 'hi_profile_applications_one_per_candidate' });
    t.index(['organization_id', 'listing_id', 'seq']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_profile_applications');
}
