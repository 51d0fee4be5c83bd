import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_outbox', (t) => {
    t.bigIncrements('id').primary();
    t.text('queue').notNullable();
    t.text('name').notNullable();
    t.text('job_id').notNullable();
    t.jsonb('data').notNullable();
    t.integer('delay_ms').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('dispatched_at', { useTz: true });
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('last_error');
  });
  // The relay only ever reads undispatched rows.
  await knex.raw('create index hi_outbox_pending on hi_outbox (id) where dispatched_at is null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_outbox');
}
