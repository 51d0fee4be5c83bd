import type { Knex } from 'knex';

/**
 * The event log (what the events API serves and webhooks deliver), per-organization event
 * sequences, webhook endpoints and one delivery row per (event, endpoint).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_event_sequences', (t) => {
    t.text('organization_id').primary();
    t.bigInteger('last_sequence').notNullable();
  });
  await knex.schema.createTable('hi_events', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable();
    // Monotonic per organization, assigned under the sequence row's lock, so commit order.
    t.bigInteger('sequence').notNullable();
    t.text('type').notNullable();
    t.jsonb('data').notNullable();
    // A producer that may run twice (a retried job) names its event; the second write is a no-op.
    t.text('dedupe_key');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['organization_id', 'sequence'], { indexName: 'hi_events_sequence' });
    t.unique(['organization_id', 'dedupe_key'], { indexName: 'hi_events_dedupe' });
    t.index(['organization_id', 'type', 'sequence']);
    t.index(['created_at']);
  });
  await knex.schema.createTable('hi_webhook_endpoints', (t) => {
    t.text('id').primary();
    t.bigIncrements('seq', { primaryKey: false });
    t.text('organization_id').notNullable();
    t.text('url').notNullable();
    t.text('description');
    t.jsonb('event_types').notNullable();
    t.boolean('enabled').notNullable().defaultTo(true);
    t.text('disabled_reason');
    // AES-256-GCM ciphertexts (src/platform/security/token-cipher.ts), never the secret itself.
    t.text('secret_ciphertext').notNullable();
    t.text('previous_secret_ciphertext');
    t.timestamp('previous_secret_expires_at', { useTz: true });
    t.timestamp('last_success_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['organization_id', 'seq']);
  });
  await knex.schema.createTable('hi_webhook_deliveries', (t) => {
    t.text('id').primary();
    t.bigIncrements('seq', { primaryKey: false });
    t.text('organization_id').notNullable();
    t.text('endpoint_id').notNullable().references('id').inTable('hi_webhook_endpoints').onDelete('CASCADE');
    t.text('event_id').notNullable().references('id').inTable('hi_events').onDelete('CASCADE');
    t.text('status').notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    // The live job is `webhook-<id>-<job_seq>`; a job carrying an older number is stale and does nothing.
    t.integer('job_seq').notNullable().defaultTo(1);
    t.integer('last_status_code');
    t.text('last_error');
    t.timestamp('next_attempt_at', { useTz: true });
    t.timestamp('locked_until', { useTz: true });
    t.timestamp('window_started_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('completed_at', { useTz: true });
    t.unique(['endpoint_id', 'event_id']);
    t.index(['endpoint_id', 'seq']);
    t.index(['status', 'next_attempt_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_webhook_deliveries');
  await knex.schema.dropTable('hi_webhook_endpoints');
  await knex.schema.dropTable('hi_events');
  await knex.schema.dropTable('hi_event_sequences');
}
