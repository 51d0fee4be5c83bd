import type { Knex } from 'knex';

/**
 * At most one live booking per scheduling request: two times booked through the same link at
 * once both passed the per-slot index (different starts). A partial unique index on (request,
 * calendar) among live bookings makes the second claim fail in the one INSERT, before any calendar
 * is written, across processes. A database that already holds such a pair is named, not guessed at.
 */
export async function up(knex: Knex): Promise<void> {
  const doubled: Array<{ request_id: string }> = await knex('hi_scheduling_bookings')
    .where({ status: 'booked' })
    .groupBy('organization_id', 'request_id', 'calendar_key')
    .havingRaw('count(*) > 1')
    .distinct('request_id');
  if (doubled.length > 0)
    throw new Error(
      `scheduling requests with more than one live booking (cancel all but one, then migrate again): ${doubled.map((r) => r.request_id).join(', ')}`,
    );
  await knex.raw(
    "create unique index hi_scheduling_bookings_one_per_request on hi_scheduling_bookings (organization_id, request_id, calendar_key) where status = 'booked'",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists hi_scheduling_bookings_one_per_request');
}
