import type { Knex } from 'knex';

/** Vertical packages: one monthly price for a bundle of catalog actions. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_packages', (t) => {
    t.text('id').primary();
    t.text('slug').notNullable().unique({ indexName: 'hi_packages_slug' });
    t.text('name').notNullable();
    t.text('description').notNullable();
    t.integer('price_amount').notNullable();
    t.string('currency', 3).notNullable();
    t.text('status').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.timestamp('archived_at', { useTz: true });
    t.check('price_amount >= 0', [], 'hi_packages_price_not_negative');
    t.check("status in ('active', 'archived')", [], 'hi_packages_status');
  });
  await knex.schema.createTable('hi_package_actions', (t) => {
    t.text('package_id').notNullable().references('id').inTable('hi_packages').onDelete('CASCADE');
    t.text('action_key').notNullable().references('key').inTable('hi_catalog_actions').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.primary(['package_id', 'action_key']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_package_actions');
  await knex.schema.dropTable('hi_packages');
}
