import { inject, injectable } from 'tsyringe';
import type { NewPackage, Package, PackageChanges, PackageRepository, PackageStatus } from '../domain/package';
import { money } from '../../../kernel/money';
import { actionFromRow } from './catalog-repository';
import { insertPackage } from './package-rows';
import type { Database } from '../../../platform/database/database';
import { DATABASE } from '../../../platform/database/tokens';

interface PackageRow {
  id: string;
  slug: string;
  name: string;
  description: string;
  price_amount: number;
  currency: string;
  status: PackageStatus;
  created_at: Date;
  updated_at: Date;
  archived_at: Date | null;
}

@injectable()
export class KnexPackageRepository implements PackageRepository {
  constructor(@inject(DATABASE) private readonly db: Database) {}

  async list(options: { includeArchived: boolean }): Promise<Package[]> {
    let query = this.db<PackageRow>('hi_packages').orderBy('slug');
    if (!options.includeArchived) query = query.where({ status: 'active' });
    return this.withActions(await query);
  }

  async findBySlug(slug: string): Promise<Package | undefined> {
    return (await this.withActions(await this.db<PackageRow>('hi_packages').where({ slug })))[0];
  }

  async findById(id: string): Promise<Package | undefined> {
    return (await this.withActions(await this.db<PackageRow>('hi_packages').where({ id })))[0];
  }

  async create(pkg: { id: string; at: Date } & NewPackage): Promise<boolean> {
    return this.db.transaction((trx) => insertPackage(trx, pkg));
  }

  async update(slug: string, changes: PackageChanges, at: Date): Promise<void> {
    await this.db.transaction(async (trx) => {
      const row = await trx<PackageRow>('hi_packages').where({ slug }).forUpdate().first();
      if (!row) return;
      const patch: Record<string, unknown> = { updated_at: at };
      if (changes.name !== undefined) patch.name = changes.name;
      if (changes.description !== undefined) patch.description = changes.description;
      if (changes.price !== undefined) Object.assign(patch, { price_amount: changes.price.amount, currency: changes.price.currency });
      await trx('hi_packages').where({ id: row.id }).update(patch);
      if (changes.actionKeys) {
        await trx('hi_package_actions').where({ package_id: row.id }).delete();
        await trx('hi_package_actions').insert(changes.actionKeys.map((key, i) => ({ package_id: row.id, action_key: key, position: i })));
      }
    });
  }

  async archive(slug: string, at: Date): Promise<void> {
    await this.db('hi_packages').where({ slug, status: 'active' }).update({ status: 'archived', archived_at: at, updated_at: at });
  }

  private async withActions(rows: PackageRow[]): Promise<Package[]> {
    if (rows.length === 0) return [];
    const actions = await this.db('hi_package_actions as pa')
      .join('hi_catalog_actions as a', 'a.key', 'pa.action_key')
      .whereIn(
        'pa.package_id',
        rows.map((r) => r.id),
      )
      .orderBy([{ column: 'pa.package_id' }, { column: 'pa.position' }])
      .select('pa.package_id', 'a.key', 'a.group_key', 'a.name', 'a.description', 'a.price_amount', 'a.currency');
    return rows.map((row) => ({
      id: row.id,
      slug: row.slug,
      name: row.name,
      description: row.description,
      price: money(Number(row.price_amount), row.currency),
      actions: actions.filter((a: { package_id: string }) => a.package_id === row.id).map(actionFromRow),
      status: row.status,
      createdAt: new Date(row.created_at),
      updatedAt: new Date(row.updated_at),
      archivedAt: row.archived_at ? new Date(row.archived_at) : null,
    }));
  }
}
