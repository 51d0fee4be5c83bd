import type { Knex } from 'knex';

/**
 * Billing: one account per organization (its ledger, standing, test clock, payment
 * method; locked for every billing change), invoices (one per organization and period,
 * numbered from one deployment-wide counter updated in the finalizing transaction, so
 * numbers have no gaps), and quotes.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_billing_accounts', (t) => {
    t.text('organization_id').primary().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('status').notNullable();
    t.jsonb('ledger').notNullable();
    t.timestamp('test_clock_at', { useTz: true });
    t.timestamp('past_due_since', { useTz: true });
    t.jsonb('payment_method');
    t.timestamp('next_action_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.check("status in ('active', 'past_due', 'suspended')", [], 'hi_billing_accounts_status');
    t.index(['next_action_at']);
  });
  await knex.schema.createTable('hi_invoices', (t) => {
    t.text('id').primary();
    t.bigIncrements('seq', { primaryKey: false });
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('number').unique({ indexName: 'hi_invoices_number' });
    t.text('status').notNullable();
    t.string('currency', 3).notNullable();
    t.timestamp('period_start', { useTz: true }).notNullable();
    t.timestamp('period_end', { useTz: true }).notNullable();
    t.jsonb('lines').notNullable();
    t.integer('subtotal').notNullable();
    t.integer('starting_credit').notNullable();
    t.integer('total').notNullable();
    t.integer('ending_credit').notNullable();
    t.integer('attempt_count').notNullable();
    t.text('last_failure');
    t.timestamp('next_attempt_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('finalized_at', { useTz: true });
    t.timestamp('paid_at', { useTz: true });
    t.timestamp('voided_at', { useTz: true });
    t.timestamp('marked_uncollectible_at', { useTz: true });
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.check("status in ('draft', 'open', 'paid', 'void', 'uncollectible')", [], 'hi_invoices_status');
    t.check('total >= 0', [], 'hi_invoices_total_not_negative');
    // A period is invoiced once per organization, however many renewal jobs run.
    t.unique(['organization_id', 'period_start'], { indexName: 'hi_invoices_one_per_period' });
    t.index(['organization_id', 'seq']);
    t.index(['status', 'seq']);
  });
  await knex.schema.createTable('hi_invoice_numbers', (t) => {
    t.integer('id').primary();
    t.integer('last_number').notNullable();
  });
  await knex('hi_invoice_numbers').insert({ id: 1, last_number: 0 });
  await knex.schema.createTable('hi_billing_quotes', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.jsonb('quote').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_billing_quotes');
  await knex.schema.dropTable('hi_invoice_numbers');
  await knex.schema.dropTable('hi_invoices');
  await knex.schema.dropTable('hi_billing_accounts');
}
