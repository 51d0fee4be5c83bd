import type { Knex } from 'knex';

/**
 * The audit trail: one hash chain per organization (`_deployment` for operator calls
 * outside any). The head row of each chain is locked while an event is appended, so two
 * writers never fork a chain; (chain, sequence) is unique besides.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_audit_heads', (t) => {
    t.text('chain').primary();
    t.bigInteger('last_sequence').notNullable();
    t.text('last_hash').notNullable();
  });
  await knex.schema.createTable('hi_audit_events', (t) => {
    t.text('id').primary();
    t.text('chain').notNullable();
    t.bigInteger('sequence').notNullable();
    t.text('organization_id');
    t.text('actor_type').notNullable();
    t.text('actor').notNullable();
    t.text('ip');
    t.text('request_id');
    t.text('action').notNullable();
    t.text('method').notNullable();
    t.text('target').notNullable();
    t.integer('status').notNullable();
    t.jsonb('before');
    t.jsonb('after');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.text('previous_hash').notNullable();
    t.text('hash').notNullable();
    t.unique(['chain', 'sequence'], { indexName: 'hi_audit_events_chain_sequence' });
    t.index(['organization_id', 'sequence']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_audit_events');
  await knex.schema.dropTable('hi_audit_heads');
}
