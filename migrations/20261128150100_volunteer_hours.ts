import type { Knex } from 'knex';

/**
 * Hours logged per volunteer (hris.volunteer_management): one row per entry (a day's service
 * at a school), in whole minutes. Personal data (the volunteer's name and email): registered
 * with the candidate data registry.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_volunteer_hours', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('volunteer_id').notNullable();
    t.text('volunteer_name').notNullable();
    t.text('volunteer_email').notNullable();
    t.text('date').notNullable();
    t.integer('minutes').notNullable();
    t.text('school');
    t.text('activity');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['organization_id', 'volunteer_id', 'date'], 'hi_volunteer_hours_organization_volunteer');
    t.index(['organization_id', 'date'], 'hi_volunteer_hours_organization_date');
    t.check('minutes > 0 and minutes <= 1440', [], 'hi_volunteer_hours_minutes');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_volunteer_hours');
}
