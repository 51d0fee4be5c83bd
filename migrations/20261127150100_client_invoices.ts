import type { Knex } from 'knex';

/**
 * Client invoices (payroll.invoicing): an agency's invoices to its client companies for
 * approved timesheets. Numbers come from the billing engine's counter table, which gains
 * named series (the billing engine's own counter is series `billing`, row 1, unchanged).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create sequence hi_invoice_numbers_id_seq start with 2 owned by hi_invoice_numbers.id');
  await knex.raw("alter table hi_invoice_numbers alter column id set default nextval('hi_invoice_numbers_id_seq')");
  await knex.schema.alterTable('hi_invoice_numbers', (t) => {
    t.text('series').unique({ indexName: 'hi_invoice_numbers_series' });
  });
  await knex('hi_invoice_numbers').where({ id: 1 }).update({ series: 'billing' });
  await knex.schema.createTable('hi_client_invoices', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('client_company_id').notNullable();
    t.text('client_name').notNullable();
    t.text('contact_name').notNullable();
    t.text('contact_email').notNullable();
    t.text('period_start').notNullable();
    t.text('period_end').notNullable();
    t.text('status').notNullable();
    t.text('number');
    t.text('currency').notNullable();
    t.jsonb('lines').notNullable();
    t.bigInteger('total_cents').notNullable();
    t.text('email_run_id');
    t.text('email_error');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('finalized_at', { useTz: true });
    t.timestamp('paid_at', { useTz: true });
    t.timestamp('voided_at', { useTz: true });
    t.index(['organization_id', 'client_company_id']);
    t.check("status in ('draft', 'open', 'paid', 'void')", [], 'hi_client_invoices_status');
    t.check('total_cents >= 0', [], 'hi_client_invoices_total');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_client_invoices');
  await knex.schema.alterTable('hi_invoice_numbers', (t) => t.dropColumn('series'));
  await knex.raw('alter table hi_invoice_numbers alter column id drop default');
  await knex.raw('drop sequence hi_invoice_numbers_id_seq');
}
