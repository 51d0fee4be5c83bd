import type { Knex } from 'knex';

/**
 * Timesheets (payroll.time_tracking): placements (a worker at a client company, bill and pay
 * rates in integer cents per hour) and one timesheet per placement and week, with its entries,
 * the computed split of minutes and amounts, and the client contact's decision. Workers' and
 * contacts' personal data: registered with the candidate data registry.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_placements', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('worker_id').notNullable();
    t.text('worker_name').notNullable();
    t.text('worker_email');
    t.text('client_company_id').notNullable();
    t.text('client_name').notNullable();
    t.text('client_contact_name').notNullable();
    t.text('client_contact_email').notNullable();
    t.bigInteger('bill_rate_cents').notNullable();
    t.bigInteger('pay_rate_cents').notNullable();
    t.text('currency').notNullable();
    t.text('overtime_rule').notNullable();
    t.text('timezone').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['organization_id', 'worker_id']);
    t.check('bill_rate_cents >= 0 and pay_rate_cents >= 0', [], 'hi_placements_rates');
  });
  await knex.schema.createTable('hi_timesheets', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('placement_id').notNullable().references('id').inTable('hi_placements').onDelete('CASCADE');
    t.text('period_start').notNullable();
    t.text('period_end').notNullable();
    t.text('status').notNullable();
    t.jsonb('entries').notNullable();
    t.integer('regular_minutes').notNullable();
    t.integer('overtime_minutes').notNullable();
    t.integer('double_time_minutes').notNullable();
    t.bigInteger('pay_cents').notNullable();
    t.bigInteger('bill_cents').notNullable();
    t.text('currency').notNullable();
    t.integer('submissions').notNullable().defaultTo(0);
    t.timestamp('submitted_at', { useTz: true });
    t.timestamp('decided_at', { useTz: true });
    t.text('decision_note');
    t.text('review_run_id');
    t.text('invoice_id');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.unique(['placement_id', 'period_start'], { indexName: 'hi_timesheets_one_per_week' });
    t.index(['organization_id', 'status', 'decided_at']);
    t.check("status in ('draft', 'submitted', 'approved', 'rejected')", [], 'hi_timesheets_status');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_timesheets');
  await knex.schema.dropTable('hi_placements');
}
