import type { Knex } from 'knex';

/**
 * The retention pass finds completed action runs by completion time: a partial index over
 * them, built concurrently (the table is large and written on every connector step; a
 * plain build would block those writes for its whole duration).
 */
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await knex.raw("create index concurrently if not exists hi_action_runs_completed on hi_action_runs (completed_at) where status in ('succeeded', 'failed')");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index concurrently if exists hi_action_runs_completed');
}
