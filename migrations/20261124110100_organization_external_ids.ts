import type { Knex } from 'knex';

/** The embedding host's own id for an organization (its tenant): unique, looked up by the host. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hi_organizations', (t) => {
    t.text('external_id');
    t.unique(['external_id'], { indexName: 'hi_organizations_external_id' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('hi_organizations', (t) => {
    t.dropUnique(['external_id'], 'hi_organizations_external_id');
    t.dropColumn('external_id');
  });
}
