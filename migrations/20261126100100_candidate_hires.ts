import type { Knex } from 'knex';

/**
 * Hires the organization reported (POST /v1/candidates/{id}/hires): an application that led
 * to a hire is kept from the applications retention rule ("unless hired"). Candidate data:
 * exported and erased with the candidate.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_candidate_hires', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('profile_user_id').notNullable();
    t.text('application_id').notNullable();
    t.text('listing_id').notNullable();
    t.timestamp('hired_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.unique(['organization_id', 'application_id'], { indexName: 'hi_candidate_hires_one_per_application' });
    t.index(['organization_id', 'profile_user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_candidate_hires');
}
