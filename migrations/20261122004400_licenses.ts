import type { Knex } from 'knex';

/**
 * Licenses. `source` is 'a_la_carte' or the package slug; the partial unique index keeps
 * one live (provisioning or active) license per organization, action and source, which
 * is what makes concurrent activations converge on one row.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_licenses', (t) => {
    t.text('id').primary();
    t.bigIncrements('seq', { primaryKey: false });
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('action_key').notNullable().references('key').inTable('hi_catalog_actions');
    t.text('source').notNullable();
    t.text('subscription_id').references('id').inTable('hi_subscriptions').onDelete('CASCADE');
    t.text('status').notNullable();
    t.text('failure_reason');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('activated_at', { useTz: true });
    t.timestamp('failed_at', { useTz: true });
    t.timestamp('deactivated_at', { useTz: true });
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.check("status in ('provisioning', 'active', 'failed', 'deactivated')", [], 'hi_licenses_status');
    t.check("(source = 'a_la_carte') = (subscription_id is null)", [], 'hi_licenses_source_matches_subscription');
    t.index(['organization_id', 'action_key', 'status']);
    t.index(['subscription_id']);
  });
  await knex.raw(`create unique index hi_licenses_one_live on hi_licenses (organization_id, action_key, source) where status in ('provisioning', 'active')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_licenses');
}
