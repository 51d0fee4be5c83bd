/** Reads of the action catalog, and the key checks every license path shares. */
import { inject, injectable } from 'tsyringe';
import { notFound } from '../../../kernel/errors';
import { requireActionKey } from './action-key';
import { CATALOG_REPOSITORY, type Catalog, type CatalogAction, type CatalogRepository } from './catalog';

@injectable()
export class CatalogService {
  constructor(@inject(CATALOG_REPOSITORY) private readonly catalogs: CatalogRepository) {}

  catalog(): Promise<Catalog> {
    return this.catalogs.catalog();
  }

  /** 400 `invalid_action_key` for a malformed key, 404 for one the catalog lacks. */
  async requireAction(key: string, param = 'action_key'): Promise<CatalogAction> {
    requireActionKey(key, param);
    const action = await this.catalogs.action(key);
    if (!action) throw notFound('action', key);
    return action;
  }
}
