import type { Knex } from 'knex';

/**
 * The credential requirements of a listing (issue 25). The host owns listings, so the plugin
 * keeps the requirements in a table of its own keyed by organization and listing id.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_listing_requirements', (t) => {
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('listing_id').notNullable();
    t.jsonb('requirements').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.primary(['organization_id', 'listing_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_listing_requirements');
}
