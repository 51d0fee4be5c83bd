import type { Knex } from 'knex';

/**
 * The sandbox provisioner's record of what it set up (one row per license, so a job run
 * twice provisions once) and its failure plans (outside production only: rehearsing a
 * provisioner that fails N times, or always).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_sandbox_provisionings', (t) => {
    t.text('license_id').primary();
    t.text('organization_id').notNullable();
    t.text('action_key').notNullable();
    t.text('group_key').notNullable();
    t.text('reference').notNullable();
    t.timestamp('provisioned_at', { useTz: true }).notNullable();
    t.timestamp('deprovisioned_at', { useTz: true });
    t.index(['organization_id', 'action_key']);
  });
  await knex.schema.createTable('hi_sandbox_provisioning_faults', (t) => {
    t.text('organization_id').notNullable();
    t.text('action_key').notNullable();
    t.text('kind').notNullable();
    // Null: fail every time.
    t.integer('failures_remaining');
    t.integer('failures_injected').notNullable().defaultTo(0);
    t.text('reason').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.primary(['organization_id', 'action_key']);
    t.check("kind in ('transient', 'permanent')", [], 'hi_sandbox_provisioning_faults_kind');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_sandbox_provisioning_faults');
  await knex.schema.dropTable('hi_sandbox_provisionings');
}
