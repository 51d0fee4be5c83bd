/** A vertical package: one monthly price for a bundle of actions. */
import type { Money } from '../../../kernel/money';
import type { CatalogAction } from './catalog';

export type PackageStatus = 'active' | 'archived';

export interface Package {
  id: string;
  slug: string;
  name: string;
  description: string;
  price: Money;
  /** The bundled actions, in the order the operator gave them. */
  actions: CatalogAction[];
  status: PackageStatus;
  createdAt: Date;
  updatedAt: Date;
  archivedAt: Date | null;
}

export interface NewPackage {
  slug: string;
  name: string;
  description: string;
  price: Money;
  actionKeys: string[];
}

export interface PackageChanges {
  name?: string;
  description?: string;
  price?: Money;
  actionKeys?: string[];
}

export interface PackageRepository {
  list(options: { includeArchived: boolean }): Promise<Package[]>;
  findBySlug(slug: string): Promise<Package | undefined>;
  findById(id: string): Promise<Package | undefined>;
  /** false when the slug is taken. */
  create(pkg: { id: string; at: Date } & NewPackage): Promise<boolean>;
  update(slug: string, changes: PackageChanges, at: Date): Promise<void>;
  archive(slug: string, at: Date): Promise<void>;
}

export const PACKAGE_REPOSITORY = Symbol('PackageRepository');
