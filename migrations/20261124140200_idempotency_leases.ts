import type { Knex } from 'knex';

/**
 * Idempotency keys that survive failure: a request in flight holds its key by a lease
 * (`owner`, `locked_until`) that it renews while it runs, so a key whose request died is
 * free again once the lease lapses; `effect_id` names what the request created, written in
 * the same transaction as the creation, so a retry replays it even if the first answer was
 * lost.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hi_idempotency_keys', (t) => {
    t.text('owner');
    t.timestamp('locked_until', { useTz: true });
    t.text('effect_id');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hi_idempotency_keys', (t) => {
    t.dropColumn('effect_id');
    t.dropColumn('locked_until');
    t.dropColumn('owner');
  });
}
