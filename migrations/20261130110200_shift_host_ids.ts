import type { Knex } from 'knex';

/**
 * The host's own id of a shift published through its hook bus (`shift.published`,
 * `shift.updated`, `shift.cancelled` name shifts by it): one shift per host id and
 * organization, so a hook delivered twice publishes once. Null for shifts made through the API.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hi_shifts', (t) => {
    t.text('host_shift_id');
  });
  await knex.raw('create unique index hi_shifts_host_shift_id on hi_shifts (organization_id, host_shift_id) where host_shift_id is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists hi_shifts_host_shift_id');
  await knex.schema.alterTable('hi_shifts', (t) => {
    t.dropColumn('host_shift_id');
  });
}
