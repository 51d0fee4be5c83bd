import type { Knex } from 'knex';

/** The candidate's positions, kept with the snapshot and carried by each application (newest first). */
export async function up(knex: Knex): Promise<void> {
  for (const table of ['hi_profile_snapshots', 'hi_profile_applications']) {
    await knex.schema.alterTable(table, (t) => {
      t.jsonb('work_history').notNullable().defaultTo(knex.raw("'[]'::jsonb"));
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['hi_profile_snapshots', 'hi_profile_applications']) {
    await knex.schema.alterTable(table, (t) => {
      t.dropColumn('work_history');
    });
  }
}
