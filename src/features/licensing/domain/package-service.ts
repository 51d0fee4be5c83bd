/**
 * Packages: organizations read them, operators create, change and archive them. A
 * package's actions must exist in the catalog and share its currency. Archiving stops
 * new subscriptions; existing ones keep their price and licenses.
 */
import { inject, injectable } from 'tsyringe';
import { CLOCK, type Clock } from '../../../kernel/clock';
import { conflict, invalid, notFound } from '../../../kernel/errors';
import { newId } from '../../../kernel/ids';
import type { Money } from '../../../kernel/money';
import { isActionKey, isPackageSlug } from './action-key';
import { CATALOG_REPOSITORY, type CatalogRepository } from './catalog';
import { PACKAGE_REPOSITORY, type NewPackage, type Package, type PackageChanges, type PackageRepository } from './package';

@injectable()
export class PackageService {
  constructor(
    @inject(PACKAGE_REPOSITORY) private readonly packages: PackageRepository,
    @inject(CATALOG_REPOSITORY) private readonly catalog: CatalogRepository,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  list(includeArchived: boolean): Promise<Package[]> {
    return this.packages.list({ includeArchived });
  }

  /** 404 for a malformed slug as for an unknown one: neither names a package. */
  async get(slug: string): Promise<Package> {
    const pkg = isPackageSlug(slug) ? await this.packages.findBySlug(slug) : undefined;
    if (!pkg) throw notFound('package', slug);
    return pkg;
  }

  async create(input: NewPackage): Promise<Package> {
    await this.checkActions(input.actionKeys, input.price);
    const created = await this.packages.create({ ...input, id: newId('pkg'), at: this.clock.now() });
    if (!created) throw conflict('package_exists', `A package with slug '${input.slug}' already exists`, { param: 'slug' });
    return this.get(input.slug);
  }

  async update(slug: string, changes: PackageChanges): Promise<Package> {
    const current = await this.get(slug);
    if (changes.actionKeys || changes.price) await this.checkActions(changes.actionKeys ?? current.actions.map((a) => a.key), changes.price ?? current.price);
    await this.packages.update(slug, changes, this.clock.now());
    return this.get(slug);
  }

  /** Idempotent: archiving an archived package answers it unchanged. */
  async archive(slug: string): Promise<Package> {
    const current = await this.get(slug);
    if (current.status !== 'archived') await this.packages.archive(slug, this.clock.now());
    return this.get(slug);
  }

  private async checkActions(keys: readonly string[], price: Money): Promise<void> {
    if (keys.length === 0) throw invalid('parameter_invalid', 'A package needs at least one action', 'actions');
    if (new Set(keys).size !== keys.length) throw invalid('parameter_invalid', 'A package lists each action once', 'actions');
    keys.forEach((key, i) => {
      if (!isActionKey(key)) throw invalid('invalid_action_key', `'${key}' is not an action key`, `actions.${i}`);
    });
    const known = await this.catalog.actions(keys);
    const missing = keys.findIndex((key) => !known.some((a) => a.key === key));
    if (missing >= 0) throw invalid('unknown_action', `No such action: '${keys[missing]}'`, `actions.${missing}`);
    const fee = await this.catalog.platformFee();
    if (price.currency !== fee.currency) throw invalid('currency_mismatch', `Packages are priced in the catalog's currency, ${fee.currency}`, 'price.currency');
  }
}
