/**
 * Action runs name the hook whose handler performed them (the runs API filters on it), and
 * a run an organization asked to retry records when (`retry_requested_at`).
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hi_action_runs', (t) => {
    t.text('hook');
    t.timestamp('retry_requested_at', { useTz: true });
    t.index(['organization_id', 'hook', 'created_at'], 'hi_action_runs_hook');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hi_action_runs', (t) => {
    t.dropIndex(['organization_id', 'hook', 'created_at'], 'hi_action_runs_hook');
    t.dropColumn('retry_requested_at');
    t.dropColumn('hook');
  });
}
