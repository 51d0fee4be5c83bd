/**
 * No selling air: an à la carte license bought while a connector its action needs is not
 * connected waits in `requires_connection` (naming the missing kinds), unbilled; it is
 * live (one per organization, action and source) like a provisioning or active one.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hi_licenses', (t) => {
    t.jsonb('missing_connections');
  });
  await knex.raw('alter table hi_licenses drop constraint hi_licenses_status');
  await knex.raw(
    "alter table hi_licenses add constraint hi_licenses_status check (status in ('requires_connection', 'provisioning', 'active', 'failed', 'deactivated'))",
  );
  await knex.raw('drop index hi_licenses_one_live');
  await knex.raw(
    "create unique index hi_licenses_one_live on hi_licenses (organization_id, action_key, source) where status in ('requires_connection', 'provisioning', 'active')",
  );
  await knex.raw("create index hi_licenses_requires_connection on hi_licenses (organization_id) where status = 'requires_connection'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index hi_licenses_requires_connection');
  await knex.raw("update hi_licenses set status = 'deactivated', deactivated_at = now() where status = 'requires_connection'");
  await knex.raw('drop index hi_licenses_one_live');
  await knex.raw("create unique index hi_licenses_one_live on hi_licenses (organization_id, action_key, source) where status in ('provisioning', 'active')");
  await knex.raw('alter table hi_licenses drop constraint hi_licenses_status');
  await knex.raw("alter table hi_licenses add constraint hi_licenses_status check (status in ('provisioning', 'active', 'failed', 'deactivated'))");
  await knex.schema.alterTable('hi_licenses', (t) => {
    t.dropColumn('missing_connections');
  });
}
