import type { Knex } from 'knex';

/**
 * The audit trail's cheap write path and its retention:
 * - hi_audit_pending: an audited call writes one row here (one INSERT, no lock); a per-chain
 *   writer moves pending rows into their chain in batches (one head lock per batch), and a
 *   sweep chains what a process that died left behind.
 * - hi_audit_heads.anchor_*: the last event pruned by retention (sequence and hash), where
 *   verification of the remaining chain starts.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_audit_pending', (t) => {
    t.text('id').primary();
    t.text('chain').notNullable();
    t.jsonb('event').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['chain', 'created_at', 'id']);
  });
  await knex.schema.alterTable('hi_audit_heads', (t) => {
    t.bigInteger('anchor_sequence').notNullable().defaultTo(0);
    t.text('anchor_hash').notNullable().defaultTo('0'.repeat(64));
  });
  await knex.schema.alterTable('hi_audit_events', (t) => {
    t.index(['chain', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hi_audit_events', (t) => {
    t.dropIndex(['chain', 'created_at']);
  });
  await knex.schema.alterTable('hi_audit_heads', (t) => {
    t.dropColumn('anchor_sequence');
    t.dropColumn('anchor_hash');
  });
  await knex.schema.dropTable('hi_audit_pending');
}
