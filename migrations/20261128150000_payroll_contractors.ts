import type { Knex } from 'knex';

/**
 * Contractors for the contractor/1099 export (payroll.contractor_export): one per organization
 * and worker id (the id placements and payout workers use), with the legal name, the TIN's
 * type and last four digits only (the full TIN is never stored) and the mailing address.
 * Personal data: registered with the candidate data registry (matched by the email).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_payroll_contractors', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('worker_id').notNullable();
    t.text('email').notNullable();
    t.text('legal_name').notNullable();
    t.text('tin_type').notNullable();
    t.text('tin_last4').notNullable();
    t.text('address_line1').notNullable();
    t.text('address_line2');
    t.text('city').notNullable();
    t.text('region').notNullable();
    t.text('postal_code').notNullable();
    t.text('country').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['organization_id', 'worker_id'], { indexName: 'hi_payroll_contractors_organization_worker' });
    t.index(['organization_id', 'email'], 'hi_payroll_contractors_organization_email');
    t.check("tin_type in ('ssn', 'ein', 'itin')", [], 'hi_payroll_contractors_tin_type');
    t.check('char_length(tin_last4) = 4', [], 'hi_payroll_contractors_tin_last4');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_payroll_contractors');
}
