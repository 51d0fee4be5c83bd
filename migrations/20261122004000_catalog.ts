import type { Knex } from 'knex';

/** The action catalog: groups, actions with monthly prices (integer minor units), and each synced document version with its platform fee. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_catalog_groups', (t) => {
    t.text('key').primary();
    t.text('name').notNullable();
    t.text('description').notNullable();
    t.integer('position').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
  await knex.schema.createTable('hi_catalog_actions', (t) => {
    t.text('key').primary();
    t.text('group_key').notNullable().references('key').inTable('hi_catalog_groups');
    t.text('name').notNullable();
    t.text('description').notNullable();
    t.integer('price_amount').notNullable();
    t.string('currency', 3).notNullable();
    t.integer('position').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.check('price_amount >= 0', [], 'hi_catalog_actions_price_not_negative');
  });
  await knex.schema.createTable('hi_catalog_versions', (t) => {
    t.integer('version').primary();
    t.integer('platform_fee_amount').notNullable();
    t.string('currency', 3).notNullable();
    t.text('source').notNullable();
    t.timestamp('synced_at', { useTz: true }).notNullable();
    t.check('platform_fee_amount >= 0', [], 'hi_catalog_versions_fee_not_negative');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_catalog_versions');
  await knex.schema.dropTable('hi_catalog_actions');
  await knex.schema.dropTable('hi_catalog_groups');
}
