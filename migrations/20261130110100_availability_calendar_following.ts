import type { Knex } from 'knex';

/**
 * Stop / resume following an interviewer calendar (POST /v1/availability/calendars/{id}/stop,
 * …/resume): a stopped calendar is not synced and its busy times block no slot. Its cached
 * busy rows are dropped when it stops (nothing reads them; the next resume reads it in full).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hi_availability_calendars', (t) => {
    t.timestamp('stopped_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hi_availability_calendars', (t) => {
    t.dropColumn('stopped_at');
  });
}
