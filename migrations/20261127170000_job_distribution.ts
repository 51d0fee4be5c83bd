import type { Knex } from 'knex';

/**
 * sourcing.distribute_jobs (issue 28): an organization's distribution channels, the views
 * of each channel's tracked apply links (counts only, no visitor data), and the `source`
 * (channel name) an application came through.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_distribution_channels', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('name').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.unique(['organization_id', 'name']);
  });
  await knex.schema.createTable('hi_distribution_views', (t) => {
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('channel').notNullable();
    t.text('listing_id').notNullable();
    t.bigInteger('views').notNullable();
    t.primary(['organization_id', 'channel', 'listing_id']);
  });
  await knex.schema.alterTable('hi_profile_applications', (t) => {
    t.text('source');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hi_profile_applications', (t) => {
    t.dropColumn('source');
  });
  await knex.schema.dropTable('hi_distribution_views');
  await knex.schema.dropTable('hi_distribution_channels');
}
