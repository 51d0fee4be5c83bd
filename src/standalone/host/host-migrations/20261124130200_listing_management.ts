import type { Knex } from 'knex';

/** Listings managed over the API: the ATS's own id (upsert key), details, list order. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('host_listings', (t) => {
    t.bigIncrements('seq', { primaryKey: false });
    t.text('external_id');
    t.text('description');
    t.text('location');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['organization_id', 'external_id'], { indexName: 'host_listings_external_id' });
    t.index(['organization_id', 'seq']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('host_listings', (t) => {
    t.dropIndex(['organization_id', 'seq']);
    t.dropUnique(['organization_id', 'external_id'], 'host_listings_external_id');
    t.dropColumn('updated_at');
    t.dropColumn('location');
    t.dropColumn('description');
    t.dropColumn('external_id');
    t.dropColumn('seq');
  });
}
