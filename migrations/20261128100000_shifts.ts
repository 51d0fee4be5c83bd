import type { Knex } from 'knex';

/**
 * Shifts (scheduling.shift_scheduling): one row per shift the host publishes for an
 * employee, with the person's contact details, the iTIP SEQUENCE (grows with every change),
 * the person's answer, the reminder and the runs that carried the last messages. Feeds: one
 * row per (organization, employee) holding the version their feed link is signed with;
 * rotating bumps it and the old link stops working. Employees' personal data: registered
 * with the candidate data registry.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_shifts', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('employee_id').notNullable();
    t.text('employee_name').notNullable();
    t.text('employee_email');
    t.text('employee_phone');
    t.text('timezone').notNullable();
    t.text('language').notNullable();
    t.text('location').notNullable();
    t.text('role');
    t.text('notes');
    t.timestamp('starts_at', { useTz: true }).notNullable();
    t.timestamp('ends_at', { useTz: true }).notNullable();
    t.text('organizer_name').notNullable();
    t.text('organizer_email').notNullable();
    t.text('status').notNullable();
    t.integer('sequence').notNullable();
    t.text('response').notNullable();
    t.timestamp('responded_at', { useTz: true });
    t.integer('remind_minutes_before');
    t.timestamp('remind_at', { useTz: true });
    t.timestamp('reminded_at', { useTz: true });
    t.text('delivery_status').notNullable();
    t.text('delivery_reason');
    t.text('email_run_id');
    t.text('sms_run_id');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['organization_id', 'starts_at', 'id'], 'hi_shifts_organization_start');
    t.index(['organization_id', 'employee_id', 'ends_at'], 'hi_shifts_organization_employee');
    t.check("status in ('scheduled', 'cancelled')", [], 'hi_shifts_status');
    t.check("response in ('pending', 'confirmed', 'declined')", [], 'hi_shifts_response');
    t.check("delivery_status in ('pending', 'sent', 'failed')", [], 'hi_shifts_delivery_status');
    t.check('ends_at > starts_at', [], 'hi_shifts_ends_after_start');
  });
  // The reminder sweep's question: which reminders are due and not sent.
  await knex.raw("create index hi_shifts_reminders_due on hi_shifts (remind_at) where reminded_at is null and remind_at is not null and status = 'scheduled'");
  await knex.schema.createTable('hi_shift_feeds', (t) => {
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('employee_id').notNullable();
    t.integer('version').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.primary(['organization_id', 'employee_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_shift_feeds');
  await knex.schema.dropTable('hi_shifts');
}
