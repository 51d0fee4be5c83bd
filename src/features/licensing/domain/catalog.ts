/** The action catalog: groups of actions, each with a monthly price, and the platform fee. */
import type { Money } from '../../../kernel/money';

export interface CatalogAction {
  key: string;
  groupKey: string;
  name: string;
  description: string;
  /** Monthly price. */
  price: Money;
}

export interface CatalogGroup {
  key: string;
  name: string;
  description: string;
  actions: CatalogAction[];
}

export interface Catalog {
  /** Highest catalog document version synced into this database. */
  version: number;
  platformFee: Money;
  groups: CatalogGroup[];
}

export interface CatalogRepository {
  catalog(): Promise<Catalog>;
  action(key: string): Promise<CatalogAction | undefined>;
  actions(keys: readonly string[]): Promise<CatalogAction[]>;
  platformFee(): Promise<Money>;
}

export const CATALOG_REPOSITORY = Symbol('CatalogRepository');
