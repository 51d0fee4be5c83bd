/**
 * Loads a catalog document into the database (migration 004200 for version 1, the CLI's
 * `catalog sync --file F` for operators' documents). Groups and actions are upserted by
 * key; packages are created when their slug is new and otherwise left to the operator
 * endpoints, so a re-sync never undoes an operator's package edits. Nothing is removed.
 */
import type { Knex } from 'knex';
import type { CatalogDocument } from '../domain/catalog-document';
import { insertPackage } from './package-rows';

export interface CatalogSyncResult {
  version: number;
  groups: number;
  actions: number;
  packagesCreated: string[];
}

/** Keeps documents' groups in their order, later versions after earlier ones. */
const position = (version: number, index: number) => version * 1000 + index;

export async function syncCatalog(db: Knex, doc: CatalogDocument, options: { source: string; at: Date }): Promise<CatalogSyncResult> {
  const { at } = options;
  return db.transaction(async (trx) => {
    let actions = 0;
    for (const [gi, group] of doc.groups.entries()) {
      await trx('hi_catalog_groups')
        .insert({ key: group.key, name: group.name, description: group.description, position: position(doc.version, gi), created_at: at, updated_at: at })
        .onConflict('key')
        .merge(['name', 'description', 'updated_at']);
      for (const [ai, action] of group.actions.entries()) {
        await trx('hi_catalog_actions')
          .insert({
            key: action.key,
            group_key: group.key,
            name: action.name,
            description: action.description,
            price_amount: action.price.amount,
            currency: action.price.currency,
            position: ai,
            created_at: at,
            updated_at: at,
          })
          .onConflict('key')
          .merge(['name', 'description', 'price_amount', 'currency', 'updated_at']);
        actions += 1;
      }
    }
    await trx('hi_catalog_versions')
      .insert({
        version: doc.version,
        platform_fee_amount: doc.platform_fee.amount,
        currency: doc.platform_fee.currency,
        source: options.source,
        synced_at: at,
      })
      .onConflict('version')
      .merge(['platform_fee_amount', 'currency', 'source', 'synced_at']);
    const packagesCreated: string[] = [];
    for (const pkg of doc.packages) {
      const id = `pkg_${pkg.slug.replace(/-/g, '_')}`;
      const created = await insertPackage(trx, {
        id,
        at,
        slug: pkg.slug,
        name: pkg.name,
        description: pkg.description,
        price: pkg.price,
        actionKeys: pkg.actions,
      });
      if (!created) continue;
      packagesCreated.push(pkg.slug);
    }
    return { version: doc.version, groups: doc.groups.length, actions, packagesCreated };
  });
}

/** The reverse of a migration's sync: removes what the document lists. */
export async function unsyncCatalog(db: Knex, doc: CatalogDocument): Promise<void> {
  await db.transaction(async (trx) => {
    await trx('hi_packages')
      .whereIn(
        'slug',
        doc.packages.map((p) => p.slug),
      )
      .delete();
    await trx('hi_catalog_versions').where({ version: doc.version }).delete();
    await trx('hi_catalog_actions')
      .whereIn(
        'key',
        doc.groups.flatMap((g) => g.actions.map((a) => a.key)),
      )
      .delete();
    await trx('hi_catalog_groups')
      .whereIn(
        'key',
        doc.groups.map((g) => g.key),
      )
      .delete();
  });
}
