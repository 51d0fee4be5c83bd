import type { Knex } from 'knex';

/**
 * Availability sync (scheduling.availability_sync): the interviewer calendars kept in sync
 * (their opaque sync state and when they were last read), the busy intervals read from them
 * (start, end and UID only: no titles, attendees or descriptions) and the time off the host
 * reported (a person's data: registered with the candidate data registry).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_availability_calendars', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('connection_id').notNullable();
    // '' for the connection's own calendar: part of the unique key, so not null.
    t.text('calendar_url').notNullable().defaultTo('');
    t.text('email').notNullable();
    t.text('sync_state');
    t.timestamp('synced_at', { useTz: true });
    t.timestamp('full_synced_at', { useTz: true });
    // The busy rows describe the calendar completely up to here (the last full read's horizon).
    t.timestamp('covers_until', { useTz: true });
    t.text('last_error_code');
    // When the job last looked at it (synced, failed, or skipped without a license): what `due` orders by.
    t.timestamp('checked_at', { useTz: true });
    // Failed syncs in a row: a broken calendar is tried less and less often (see markFailed).
    t.integer('failures').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.unique(['organization_id', 'connection_id', 'calendar_url'], { indexName: 'hi_availability_calendars_one_per_calendar' });
    t.index(['organization_id', 'email']);
  });
  await knex.schema.createTable('hi_availability_busy', (t) => {
    t.bigIncrements('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('calendar_id').notNullable().references('id').inTable('hi_availability_calendars').onDelete('CASCADE');
    t.text('event_url').notNullable();
    t.text('uid');
    t.timestamp('starts_at', { useTz: true }).notNullable();
    t.timestamp('ends_at', { useTz: true }).notNullable();
    t.index(['calendar_id', 'event_url']);
    t.index(['calendar_id', 'starts_at']);
  });
  await knex.schema.createTable('hi_time_off', (t) => {
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('time_off_id').notNullable();
    t.text('email').notNullable();
    t.text('name');
    t.timestamp('starts_at', { useTz: true }).notNullable();
    t.timestamp('ends_at', { useTz: true }).notNullable();
    t.boolean('all_day').notNullable().defaultTo(false);
    t.text('timezone').notNullable();
    t.text('reason');
    t.text('status').notNullable();
    t.integer('sequence').notNullable().defaultTo(0);
    t.text('digest').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.primary(['organization_id', 'time_off_id']);
    t.index(['organization_id', 'email', 'status']);
    t.check('ends_at > starts_at', [], 'hi_time_off_ends_after_start');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('hi_time_off');
  await knex.schema.dropTableIfExists('hi_availability_busy');
  await knex.schema.dropTableIfExists('hi_availability_calendars');
}
