import type { Knex } from 'knex';

/**
 * Who ended a scheduling request (`candidate` through the signed page, `host` through
 * POST /v1/scheduling/requests/{id}/cancel), when, and the host's optional reason (kept
 * by the plugin, never shown to the candidate). Candidate data with the row it sits on:
 * exported and erased with the request. Null for requests still open or booked, and for
 * those cancelled before this was recorded.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hi_scheduling_requests', (t) => {
    t.text('cancelled_by');
    t.text('cancellation_reason');
    t.timestamp('cancelled_at', { useTz: true });
    t.check("cancelled_by is null or cancelled_by in ('candidate', 'host')", [], 'hi_scheduling_requests_cancelled_by');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hi_scheduling_requests', (t) => {
    t.dropColumn('cancelled_at');
    t.dropColumn('cancellation_reason');
    t.dropColumn('cancelled_by');
  });
}
