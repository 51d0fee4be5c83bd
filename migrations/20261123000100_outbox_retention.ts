import type { Knex } from 'knex';

/** The relay prunes dispatched rows past their retention; this finds them without a scan. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create index hi_outbox_dispatched on hi_outbox (dispatched_at) where dispatched_at is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index hi_outbox_dispatched');
}
