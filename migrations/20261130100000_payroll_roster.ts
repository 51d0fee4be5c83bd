import type { Knex } from 'knex';

/**
 * What the host reported about each hired person, per organization and roster: `payroll` (kept
 * by payroll.payroll_sync: compared with each change so the change file can say old → new) and
 * `pos` (kept by hris.pos_sync: the current team members for a POS's web import). And the payroll
 * journal: each hire, change and termination as payroll reads it (name, email, title, department,
 * start date, employment type, pay rate in integer minor units), from which the daily change.v1
 * batch and the new-hire download are written. Personal data: registered with the candidate
 * data registry (matched by email).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_employee_roster', (t) => {
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('roster').notNullable();
    t.text('candidate_id').notNullable();
    t.text('name');
    t.text('email');
    t.text('phone');
    t.text('job_title');
    t.text('department');
    t.text('start_date');
    t.text('employment_type');
    t.bigInteger('pay_amount');
    t.text('pay_currency');
    t.text('pay_per');
    t.text('status').notNullable();
    t.integer('revision').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.primary(['organization_id', 'roster', 'candidate_id'], { constraintName: 'hi_employee_roster_pkey' });
    t.index(['organization_id', 'email'], 'hi_employee_roster_organization_email');
    t.check("roster in ('payroll', 'pos')", [], 'hi_employee_roster_roster');
    t.check("status in ('active', 'terminated')", [], 'hi_employee_roster_status');
  });
  await knex.schema.createTable('hi_payroll_changes', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('candidate_id').notNullable();
    t.integer('revision').notNullable();
    t.text('kind').notNullable();
    t.text('changed_fields').notNullable();
    t.text('effective_date').notNullable();
    t.text('reason');
    t.text('name');
    t.text('email');
    t.text('job_title');
    t.text('department');
    t.text('start_date');
    t.text('employment_type');
    t.bigInteger('old_pay_amount');
    t.text('old_pay_currency');
    t.text('old_pay_per');
    t.bigInteger('new_pay_amount');
    t.text('new_pay_currency');
    t.text('new_pay_per');
    t.timestamp('recorded_at', { useTz: true }).notNullable();
    t.unique(['organization_id', 'candidate_id', 'revision'], { indexName: 'hi_payroll_changes_candidate_revision' });
    t.index(['recorded_at', 'organization_id'], 'hi_payroll_changes_recorded');
    t.index(['organization_id', 'email'], 'hi_payroll_changes_organization_email');
    t.check("kind in ('hire', 'update', 'rehire', 'termination')", [], 'hi_payroll_changes_kind');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_payroll_changes');
  await knex.schema.dropTable('hi_employee_roster');
}
