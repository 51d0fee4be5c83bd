import type { Knex } from 'knex';

/**
 * Retention per organization (null: the documented default), and why an erasure ran: a
 * candidate's request or the retention sweep.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_retention_settings', (t) => {
    t.text('organization_id').primary().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.integer('applications_days');
    t.integer('unfinished_authorizations_days');
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.check('applications_days is null or applications_days >= 1', [], 'hi_retention_settings_applications_days');
    t.check('unfinished_authorizations_days is null or unfinished_authorizations_days >= 1', [], 'hi_retention_settings_unfinished_days');
  });
  await knex.schema.alterTable('hi_candidate_erasures', (t) => {
    t.text('reason').notNullable().defaultTo('request');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hi_candidate_erasures', (t) => {
    t.dropColumn('reason');
  });
  await knex.schema.dropTable('hi_retention_settings');
}
