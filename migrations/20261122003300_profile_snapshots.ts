import type { Knex } from 'knex';

/** The last imported profile of a candidate, as one organization may use it. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_profile_snapshots', (t) => {
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('profile_user_id').notNullable();
    t.text('name').notNullable();
    t.text('headline');
    t.text('profile_url').notNullable();
    t.jsonb('skills').notNullable();
    t.jsonb('credentials').notNullable();
    t.jsonb('experience_summary').notNullable();
    t.timestamp('imported_at', { useTz: true }).notNullable();
    t.primary(['organization_id', 'profile_user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_profile_snapshots');
}
