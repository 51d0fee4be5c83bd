import type { Knex } from 'knex';

/** Package subscriptions: at most one live (provisioning or active) per organization and package. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_subscriptions', (t) => {
    t.text('id').primary();
    t.bigIncrements('seq', { primaryKey: false });
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('package_id').notNullable().references('id').inTable('hi_packages');
    t.text('package_slug').notNullable();
    t.integer('price_amount').notNullable();
    t.string('currency', 3).notNullable();
    t.text('status').notNullable();
    t.text('failure_reason');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('activated_at', { useTz: true });
    t.timestamp('failed_at', { useTz: true });
    t.timestamp('canceled_at', { useTz: true });
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.check("status in ('provisioning', 'active', 'failed', 'canceled')", [], 'hi_subscriptions_status');
    t.index(['organization_id', 'seq']);
  });
  await knex.raw(`create unique index hi_subscriptions_one_live on hi_subscriptions (organization_id, package_id) where status in ('provisioning', 'active')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_subscriptions');
}
