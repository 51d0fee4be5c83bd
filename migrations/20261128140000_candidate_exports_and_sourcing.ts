import type { Knex } from 'knex';

/**
 * Issue 28 §4 and §5. job_import.export_candidates: an organization's export schedule to its
 * SFTP connection (format, filters, cadence, and the last delivery, from which the next one
 * continues). sourcing.source_candidates: the talent pool (candidates who consented, with
 * their application, to be contacted again about other jobs: the address to write to and a
 * location to search by), and the invitations sent from it, each usable once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_candidate_export_schedules', (t) => {
    t.text('organization_id').primary().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('format').notNullable();
    t.text('listing_id');
    t.text('status');
    t.text('every').notNullable();
    t.timestamp('next_run_at', { useTz: true }).notNullable();
    t.timestamp('last_delivered_at', { useTz: true });
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['next_run_at']);
  });
  // Exports read applications in (profile_user_id, seq) order: one candidate's applications together.
  await knex.schema.alterTable('hi_profile_applications', (t) => {
    t.index(['organization_id', 'profile_user_id', 'seq'], 'hi_profile_applications_export_order');
  });
  await knex.schema.createTable('hi_sourcing_consents', (t) => {
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('profile_user_id').notNullable();
    t.text('application_id').notNullable();
    t.text('email').notNullable();
    t.text('location');
    t.timestamp('granted_at', { useTz: true }).notNullable();
    t.timestamp('withdrawn_at', { useTz: true });
    t.primary(['organization_id', 'profile_user_id']);
  });
  await knex.schema.createTable('hi_sourcing_invitations', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('listing_id').notNullable();
    t.text('profile_user_id').notNullable();
    t.text('run_id');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.text('application_id');
    t.index(['organization_id', 'profile_user_id']);
    t.unique(['organization_id', 'application_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_sourcing_invitations');
  await knex.schema.dropTable('hi_sourcing_consents');
  await knex.schema.alterTable('hi_profile_applications', (t) => {
    t.dropIndex(['organization_id', 'profile_user_id', 'seq'], 'hi_profile_applications_export_order');
  });
  await knex.schema.dropTable('hi_candidate_export_schedules');
}
