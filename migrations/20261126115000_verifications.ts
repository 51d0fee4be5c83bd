import type { Knex } from 'knex';

/**
 * Verifications (`sms.two_factor_auth`): one row per code sent. Neither the code nor the
 * destination is kept in clear: both are HMACs under keys derived from SECRET_KEY, so a
 * leaked table reveals neither, and erasure still finds a candidate's rows by hashing the
 * contact details the request names.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_verifications', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('channel').notNullable();
    t.text('destination_hash').notNullable();
    t.text('code_hash').notNullable();
    t.text('status').notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('run_id');
    t.boolean('livemode').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['organization_id', 'destination_hash', 'created_at'], 'hi_verifications_destination');
    t.check("status in ('pending', 'approved', 'canceled', 'max_attempts_reached', 'failed')", [], 'hi_verifications_status');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('hi_verifications');
}
