import type { Knex } from 'knex';

/**
 * What the HRIS (hris.employee_sync) was last asked to do for each person: a digest of the
 * report (hire, change or termination) and a revision that goes up whenever a report differs
 * from the previous one. The action run's key carries the revision, so a hook fired again is
 * the same run (nothing new is sent) while a change back to an earlier state is a new run.
 * Holds the host's candidate id and email: registered with the candidate data registry
 * (matched by email).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hi_hook_sync_states', (t) => {
    t.text('organization_id').notNullable().references('id').inTable('hi_organizations').onDelete('CASCADE');
    t.text('sink').notNullable();
    t.text('candidate_id').notNullable();
    t.text('email');
    t.text('digest').notNullable();
    t.integer('revision').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.primary(['organization_id', 'sink', 'candidate_id'], { constraintName: 'hi_hook_sync_states_pkey' });
    t.index(['organization_id', 'email'], 'hi_hook_sync_states_organization_email');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hi_hook_sync_states');
}
