import type { Knex } from 'knex';

/** The standalone host's own tables: what a real ATS already has. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('host_listings', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable();
    t.text('title').notNullable();
    t.text('status').notNullable().defaultTo('open');
    t.jsonb('questions').notNullable().defaultTo('[]');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['organization_id']);
  });
  await knex.schema.createTable('host_pipeline_applications', (t) => {
    t.text('application_id').primary();
    t.text('organization_id').notNullable();
    t.text('listing_id').notNullable();
    t.text('profile_user_id').notNullable();
    t.text('stage').notNullable().defaultTo('applied');
    t.jsonb('payload').notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['organization_id', 'received_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('host_pipeline_applications');
  await knex.schema.dropTable('host_listings');
}
