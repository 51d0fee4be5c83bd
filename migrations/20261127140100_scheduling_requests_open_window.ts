import type { Knex } from 'knex';

/**
 * One open scheduling request per application and window: a create retried while the first
 * is still open (its answer lost, another Idempotency-Key or none) finds it instead of adding a second.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    "create unique index hi_scheduling_requests_open_window on hi_scheduling_requests (organization_id, application_id, window_start, window_end) where status = 'open'",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists hi_scheduling_requests_open_window');
}
