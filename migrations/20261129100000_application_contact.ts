import type { Knex } from 'knex';

/**
 * How an application's candidate can be reached (issues 25 and 28): `contact_email`
 * (lower-cased, so one person is one email) and `contact_phone` on every application —
 * given with a profile application, or the board applicant's (copied here for the board
 * applications already stored). Indexed per listing: a board delivery of the same email is a
 * duplicate of the profile application. Candidate data: exported, erased and retained with the
 * application row.
 *
 * And the listing's background-check policy (`hi_listing_background_checks`): which vendor
 * package is ordered automatically when an application arrives (organization configuration).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hi_profile_applications', (t) => {
    t.text('contact_email');
    t.text('contact_phone');
    t.index(['organization_id', 'listing_id', 'contact_email'], 'hi_profile_applications_contact_email');
  });
  await knex.raw(`update hi_profile_applications p set contact_email = b.email, contact_phone = b.phone
    from hi_board_applications b where b.application_id = p.id`);
  await knex.schema.createTable('hi_listing_background_checks', (t) => {
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('listing_id').notNullable();
    t.jsonb('policy').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.primary(['organization_id', 'listing_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_listing_background_checks');
  await knex.schema.alterTable('hi_profile_applications', (t) => {
    t.dropIndex(['organization_id', 'listing_id', 'contact_email'], 'hi_profile_applications_contact_email');
    t.dropColumn('contact_email');
    t.dropColumn('contact_phone');
  });
}
