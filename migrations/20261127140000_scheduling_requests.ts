import type { Knex } from 'knex';

/**
 * Scheduling requests: the host asks the plugin to let a candidate pick an interview time
 * (interviewers with their calendar connections, duration, window, zone, language). The
 * candidate's name, email and phone are held here until erased; the bookings themselves are
 * in hi_scheduling_bookings.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_scheduling_requests', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('application_id').notNullable();
    t.text('title').notNullable();
    t.text('candidate_name').notNullable();
    t.text('candidate_email').notNullable();
    t.text('candidate_phone');
    t.text('language').notNullable();
    t.text('timezone').notNullable();
    t.integer('duration_minutes').notNullable();
    t.timestamp('window_start', { useTz: true }).notNullable();
    t.timestamp('window_end', { useTz: true }).notNullable();
    t.jsonb('interviewers').notNullable();
    t.text('organizer_name').notNullable();
    t.text('organizer_email').notNullable();
    t.text('status').notNullable();
    t.text('email_run_id');
    t.text('sms_run_id');
    t.timestamp('link_expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.check("status in ('open', 'booked', 'cancelled')", [], 'hi_scheduling_requests_status');
    t.index(['organization_id', 'application_id'], 'hi_scheduling_requests_application');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('hi_scheduling_requests');
}
