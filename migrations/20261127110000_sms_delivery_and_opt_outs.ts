import type { Knex } from 'knex';

/**
 * SMS delivery status and opt-outs. Delivery status callbacks (Twilio) and receipts (SMPP
 * deliver_sm) name the message by the counterpart's reference: runs are found by
 * (connector, reference). An opted-out number is kept only as an HMAC (key derived from
 * SECRET_KEY), like verification destinations: erasure finds it by hashing the phone given.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hi_action_runs', (t) => {
    t.index(['connector', 'reference'], 'hi_action_runs_reference');
  });
  await knex.schema.createTable('hi_sms_opt_outs', (t) => {
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('phone_hash').notNullable();
    t.text('keyword').notNullable();
    t.text('source').notNullable();
    t.timestamp('opted_out_at', { useTz: true }).notNullable();
    t.primary(['organization_id', 'phone_hash']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('hi_sms_opt_outs');
  await knex.schema.alterTable('hi_action_runs', (t) => {
    t.dropIndex(['connector', 'reference'], 'hi_action_runs_reference');
  });
}
