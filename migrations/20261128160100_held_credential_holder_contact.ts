import type { Knex } from 'knex';

/**
 * Reminder emails before a held credential expires (issue 25): the holder's name and email,
 * when the host gave them with the credentials (`credentials.presented`'s `candidate`).
 * Candidate data: exported and erased with the row.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hi_held_credentials', (t) => {
    t.text('holder_name');
    t.text('holder_email');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hi_held_credentials', (t) => {
    t.dropColumn('holder_name');
    t.dropColumn('holder_email');
  });
}
