/**
 * Writing a package: one place for the operator endpoint (KnexPackageRepository.create)
 * and the catalog sync (migrations, `catalog sync`). No tsyringe here, so migrations can
 * load it.
 */
import type { Knex } from 'knex';
import type { NewPackage } from '../domain/package';

/** Inserts a package and its actions in order, in the caller's transaction; false when the slug exists (nothing written). */
export async function insertPackage(trx: Knex, pkg: { id: string; at: Date } & NewPackage): Promise<boolean> {
  const inserted = await trx('hi_packages')
    .insert({
      id: pkg.id,
      slug: pkg.slug,
      name: pkg.name,
      description: pkg.description,
      price_amount: pkg.price.amount,
      currency: pkg.price.currency,
      status: 'active',
      created_at: pkg.at,
      updated_at: pkg.at,
    })
    .onConflict('slug')
    .ignore()
    .returning('id');
  if (inserted.length === 0) return false;
  await trx('hi_package_actions').insert(pkg.actionKeys.map((key, i) => ({ package_id: pkg.id, action_key: key, position: i })));
  return true;
}
