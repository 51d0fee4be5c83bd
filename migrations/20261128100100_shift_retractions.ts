import type { Knex } from 'knex';

/**
 * A shift whose employee email changed owes the old address a CANCEL (the event sits in that
 * calendar): the address waits on the row until the delivery job has sent it, then is cleared.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hi_shifts', (t) => {
    t.text('retract_name');
    t.text('retract_email');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hi_shifts', (t) => {
    t.dropColumn('retract_email');
    t.dropColumn('retract_name');
  });
}
