import type { Knex } from 'knex';

/**
 * Interview bookings a candidate made through a scheduling link: one row per interviewer
 * calendar, so a partial unique index on (calendar, start) among the live bookings lets two
 * candidates racing for one slot end with one booking; a cancelled booking frees its slot.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_scheduling_bookings', (t) => {
    t.text('id').notNullable();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('request_id').notNullable();
    t.text('calendar_key').notNullable();
    t.text('event_uid').notNullable();
    t.integer('sequence').notNullable().defaultTo(0);
    t.timestamp('starts_at', { useTz: true }).notNullable();
    t.timestamp('ends_at', { useTz: true }).notNullable();
    t.text('candidate_name').notNullable();
    t.text('candidate_email').notNullable();
    t.text('status').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.primary(['id', 'calendar_key']);
    t.check("status in ('booked', 'cancelled')", [], 'hi_scheduling_bookings_status');
  });
  await knex.raw(
    "create unique index hi_scheduling_bookings_slot on hi_scheduling_bookings (organization_id, calendar_key, starts_at) where status = 'booked'",
  );
  await knex.schema.alterTable('hi_scheduling_bookings', (t) => t.index(['organization_id', 'request_id'], 'hi_scheduling_bookings_request'));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('hi_scheduling_bookings');
}
