import type { Knex } from 'knex';
import { parseCatalogDocument } from '../src/features/licensing/domain/catalog-document';
import { syncCatalog, unsyncCatalog } from '../src/features/licensing/storage/catalog-sync';
import document from '../src/features/licensing/catalog.v1.json';

/** Loads catalog document version 1 (13 groups of actions, the six vertical packages, the platform fee). */
export async function up(knex: Knex): Promise<void> {
  await syncCatalog(knex, parseCatalogDocument(document), { source: 'catalog.v1.json', at: new Date() });
}

export async function down(knex: Knex): Promise<void> {
  await unsyncCatalog(knex, parseCatalogDocument(document));
}
