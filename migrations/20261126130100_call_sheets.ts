import type { Knex } from 'knex';

/**
 * Call sheets: one row per organization, production day and person (the host's ids make a
 * repeated hook one message per person), with the runs that sent it, the confirmation and
 * the reminder. Crew members' personal data: registered with the candidate data registry.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_call_sheets', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('production_day_id').notNullable();
    t.text('person_id').notNullable();
    t.text('name').notNullable();
    t.text('email');
    t.text('phone');
    t.text('language').notNullable();
    t.text('role');
    t.text('production').notNullable();
    t.text('date').notNullable();
    t.text('timezone').notNullable();
    t.text('location').notNullable();
    t.timestamp('call_at', { useTz: true }).notNullable();
    t.timestamp('confirm_by', { useTz: true });
    t.text('status').notNullable();
    t.text('reason');
    t.text('email_run_id');
    t.text('sms_run_id');
    t.timestamp('confirmed_at', { useTz: true });
    t.timestamp('reminded_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.unique(['organization_id', 'production_day_id', 'person_id'], { indexName: 'hi_call_sheets_organization_day_person' });
    t.check("status in ('sent', 'confirmed', 'failed')", [], 'hi_call_sheets_status');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_call_sheets');
}
