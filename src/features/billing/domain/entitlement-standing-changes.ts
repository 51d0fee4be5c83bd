/**
 * StandingChanges on the existing entitlement invalidation channel: a suspension or a
 * restoration changes every entitlement answer of the organization, so this process's
 * cache drops them at once and every other process hears one `changed` per catalog action.
 */
import type { CatalogRepository } from '../../licensing/domain/catalog';
import type { EntitlementCache } from '../../licensing/domain/entitlement-cache';
import type { EntitlementInvalidations } from '../../licensing/domain/entitlement-invalidations';
import type { StandingChanges } from './standing-changes';
import type { Logger } from '../../../kernel/logger';

export class EntitlementStandingChanges implements StandingChanges {
  constructor(
    private readonly catalog: CatalogRepository,
    private readonly cache: () => EntitlementCache,
    private readonly invalidations: () => EntitlementInvalidations,
    private readonly logger: Logger,
  ) {}

  async changed(organizationId: string): Promise<void> {
    const keys = (await this.catalog.catalog()).groups.flatMap((g) => g.actions.map((a) => a.key));
    const cache = this.cache();
    for (const actionKey of keys) cache.invalidate(organizationId, actionKey);
    try {
      await Promise.all(keys.map((actionKey) => this.invalidations().publish({ type: 'changed', organizationId, actionKey })));
    } catch (error) {
      this.logger.warn(
        { organizationId, err: (error as Error).message },
        'publishing a standing change failed; other processes catch up within the entitlement TTL',
      );
    }
  }
}
