import type { Knex } from 'knex';

/**
 * Payouts: workers (one per organization and caller reference) with their connected account
 * and KYC state as the provider last reported it, and payouts (one per organization and
 * caller reference, so a retried request never pays twice) with the runs that moved the money.
 * Workers' and their payouts' rows are personal data: registered with the candidate data registry.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_payout_workers', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('reference').notNullable();
    t.text('email').notNullable();
    t.text('phone');
    t.text('country').notNullable();
    t.text('account_id');
    t.text('kyc_status').notNullable();
    t.boolean('payouts_enabled').notNullable().defaultTo(false);
    t.jsonb('requirements_due').notNullable().defaultTo('[]');
    t.text('disabled_reason');
    t.text('onboarding_run_id');
    t.boolean('livemode').notNullable().defaultTo(true);
    t.timestamp('kyc_updated_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['organization_id', 'reference'], { indexName: 'hi_payout_workers_organization_reference' });
    t.index(['organization_id', 'account_id'], 'hi_payout_workers_organization_account');
    t.check("kyc_status in ('pending', 'onboarding', 'requirements_due', 'completed', 'disabled')", [], 'hi_payout_workers_kyc_status');
  });
  await knex.schema.createTable('hi_payouts', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('worker_id').notNullable().references('id').inTable('hi_payout_workers').onDelete('CASCADE');
    t.text('reference').notNullable();
    t.text('source').notNullable();
    t.bigInteger('amount').notNullable();
    t.bigInteger('fee').notNullable();
    t.text('currency').notNullable();
    t.text('status').notNullable();
    t.text('transfer_id');
    t.text('transfer_run_id');
    t.text('provider_payout_id');
    t.text('payout_run_id');
    t.text('failure_code');
    t.text('failure_message');
    t.boolean('livemode').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['organization_id', 'reference'], { indexName: 'hi_payouts_organization_reference' });
    t.index(['organization_id', 'provider_payout_id'], 'hi_payouts_organization_provider_payout');
    t.check('amount > 0 and fee >= 0 and fee < amount', [], 'hi_payouts_amounts');
    t.check("status in ('pending', 'transferred', 'in_transit', 'paid', 'failed')", [], 'hi_payouts_status');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_payouts');
  await knex.schema.dropTable('hi_payout_workers');
}
