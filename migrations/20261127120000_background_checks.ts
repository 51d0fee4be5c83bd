import type { Knex } from 'knex';

/**
 * Background checks through a vendor (issue 25): one row per ordered check with its report,
 * requirement verdict, monitoring and FCRA adverse action; the vendor's webhook event ids seen
 * (replay safety); and the sandbox may now record background-check orders.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_background_checks', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('action').notNullable();
    t.text('host_check_id').notNullable();
    t.text('candidate_id').notNullable();
    t.text('listing_id');
    t.text('purpose').notNullable();
    t.text('candidate_email').notNullable();
    t.text('candidate_name');
    t.text('package_slug').notNullable();
    t.text('connector').notNullable();
    t.text('run_id');
    t.boolean('livemode').notNullable();
    t.text('vendor_candidate_id').notNullable();
    t.text('invitation_id').notNullable();
    t.text('invitation_url');
    t.text('report_id');
    t.text('report_status').notNullable();
    t.text('report_result');
    t.text('requirements').notNullable();
    t.text('status').notNullable();
    t.text('monitoring_id');
    t.text('monitoring_type');
    t.text('monitoring_report_id');
    t.text('monitoring_result');
    t.text('adverse_stage').notNullable();
    t.timestamp('adverse_pre_notice_at', { useTz: true });
    t.timestamp('adverse_waiting_until', { useTz: true });
    t.timestamp('adverse_final_notice_at', { useTz: true });
    t.timestamp('adverse_cancelled_at', { useTz: true });
    t.timestamp('completed_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['organization_id', 'action', 'host_check_id']);
    t.index(['organization_id', 'candidate_id']);
    t.index(['organization_id', 'vendor_candidate_id']);
  });
  await knex.schema.createTable('hi_background_check_events', (t) => {
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('event_id').notNullable();
    t.text('type').notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable();
    t.primary(['organization_id', 'event_id']);
  });
  await knex.raw('alter table hi_connector_deliveries drop constraint hi_connector_deliveries_connector');
  await knex.raw(
    "alter table hi_connector_deliveries add constraint hi_connector_deliveries_connector check (connector in ('email', 'sms', 'video_meetings', 'esign', 'hris', 'background_checks'))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex('hi_connector_deliveries').where({ connector: 'background_checks' }).delete();
  await knex.raw('alter table hi_connector_deliveries drop constraint hi_connector_deliveries_connector');
  await knex.raw(
    "alter table hi_connector_deliveries add constraint hi_connector_deliveries_connector check (connector in ('email', 'sms', 'video_meetings', 'esign', 'hris'))",
  );
  await knex.schema.dropTable('hi_background_check_events');
  await knex.schema.dropTable('hi_background_checks');
}
