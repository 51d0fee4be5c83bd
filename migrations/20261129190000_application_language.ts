import type { Knex } from 'knex';

/**
 * The candidate's language (a canonical BCP 47 tag, as the widget renders in): given with a
 * profile application and kept on it, and on the recontact consent given with it, so
 * messages to the candidate that had no language (a credential expiry reminder, a sourcing
 * invitation) are written in theirs; and on a held credential's holder (`holder_language`),
 * copied from the application whose reviewed document it is, for its expiry reminders. Candidate data: exported, erased and retained with the
 * rows it sits on. Null for what was stored before (those messages stay English).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hi_profile_applications', (t) => {
    t.text('language');
  });
  await knex.schema.alterTable('hi_sourcing_consents', (t) => {
    t.text('language');
  });
  await knex.schema.alterTable('hi_held_credentials', (t) => {
    t.text('holder_language');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hi_held_credentials', (t) => {
    t.dropColumn('holder_language');
  });
  await knex.schema.alterTable('hi_sourcing_consents', (t) => {
    t.dropColumn('language');
  });
  await knex.schema.alterTable('hi_profile_applications', (t) => {
    t.dropColumn('language');
  });
}
