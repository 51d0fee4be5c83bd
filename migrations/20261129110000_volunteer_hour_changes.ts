import type { Knex } from 'knex';

/**
 * Volunteer hours corrected or voided by the organization: an entry keeps its current values,
 * its status (`logged` or `voided`) and a revision (a compare-and-set against concurrent
 * corrections); each correction or void is a row of hi_volunteer_hour_changes with the reason
 * and the values before and after, so the history is kept. The changes are the volunteer's
 * data through their entry (registered with the candidate data registry).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hi_volunteer_hours', (t) => {
    t.text('status').notNullable().defaultTo('logged');
    t.integer('revision').notNullable().defaultTo(1);
    t.timestamp('updated_at', { useTz: true });
    t.check("status in ('logged', 'voided')", [], 'hi_volunteer_hours_status');
  });
  await knex.schema.createTable('hi_volunteer_hour_changes', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('entry_id').notNullable().references('id').inTable('hi_volunteer_hours').onDelete('CASCADE');
    t.integer('revision').notNullable();
    t.text('kind').notNullable();
    t.text('reason').notNullable();
    t.jsonb('before').notNullable();
    t.jsonb('after');
    t.timestamp('changed_at', { useTz: true }).notNullable();
    t.unique(['entry_id', 'revision'], { indexName: 'hi_volunteer_hour_changes_one_per_revision' });
    t.check("kind in ('corrected', 'voided')", [], 'hi_volunteer_hour_changes_kind');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_volunteer_hour_changes');
  await knex.schema.alterTable('hi_volunteer_hours', (t) => {
    t.dropChecks(['hi_volunteer_hours_status']);
    t.dropColumns('status', 'revision', 'updated_at');
  });
}
