import { inject, injectable } from 'tsyringe';
import type { Catalog, CatalogAction, CatalogRepository } from '../domain/catalog';
import { money, type Money } from '../../../kernel/money';
import type { Database } from '../../../platform/database/database';
import { DATABASE } from '../../../platform/database/tokens';

interface ActionRow {
  key: string;
  group_key: string;
  name: string;
  description: string;
  price_amount: number;
  currency: string;
}

export const actionFromRow = (row: ActionRow): CatalogAction => ({
  key: row.key,
  groupKey: row.group_key,
  name: row.name,
  description: row.description,
  price: money(Number(row.price_amount), row.currency),
});

@injectable()
export class KnexCatalogRepository implements CatalogRepository {
  constructor(@inject(DATABASE) private readonly db: Database) {}

  async catalog(): Promise<Catalog> {
    const groups = await this.db('hi_catalog_groups').orderBy([{ column: 'position' }, { column: 'key' }]);
    const actions: ActionRow[] = await this.db('hi_catalog_actions').orderBy([{ column: 'position' }, { column: 'key' }]);
    const latest = await this.latestVersion();
    return {
      version: latest?.version ?? 0,
      platformFee: await this.platformFee(),
      groups: groups.map((g: { key: string; name: string; description: string }) => ({
        key: g.key,
        name: g.name,
        description: g.description,
        actions: actions.filter((a) => a.group_key === g.key).map(actionFromRow),
      })),
    };
  }

  async action(key: string): Promise<CatalogAction | undefined> {
    const row = await this.db<ActionRow>('hi_catalog_actions').where({ key }).first();
    return row ? actionFromRow(row) : undefined;
  }

  async actions(keys: readonly string[]): Promise<CatalogAction[]> {
    if (keys.length === 0) return [];
    const rows: ActionRow[] = await this.db('hi_catalog_actions').whereIn('key', keys).orderBy('key');
    return rows.map(actionFromRow);
  }

  async platformFee(): Promise<Money> {
    const latest = await this.latestVersion();
    if (!latest) throw new Error('The catalog is empty: run the migrations (they load catalog version 1)');
    return money(Number(latest.platform_fee_amount), latest.currency);
  }

  private latestVersion(): Promise<{ version: number; platform_fee_amount: number; currency: string } | undefined> {
    return this.db('hi_catalog_versions').orderBy('version', 'desc').first();
  }
}
