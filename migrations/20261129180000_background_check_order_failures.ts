import type { Knex } from 'knex';

/**
 * Automatic background-check orders that failed (issue 25): the application, the failed
 * order run and its code. The application's check reads `vendor_order_failed` from here
 * while the run is failed (or gone: failed runs are pruned after
 * ACTION_RUN_FAILED_RETENTION_DAYS, the failure is not), and the reconciliation sweep does
 * not order it again. Goes with its application.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_background_check_order_failures', (t) => {
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('application_id').notNullable().references('id').inTable('hi_profile_applications').onDelete('CASCADE');
    t.text('action').notNullable();
    t.text('run_id').notNullable();
    t.text('connector').notNullable();
    t.text('error_code');
    t.timestamp('failed_at', { useTz: true }).notNullable();
    t.primary(['organization_id', 'application_id']);
    t.index(['application_id'], 'hi_background_check_order_failures_application');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_background_check_order_failures');
}
