/**
 * The entitlement cache's invalidations carried on the shared cache channel, so one
 * subscription per process serves every cache (EntitlementSync is unchanged: it still
 * publishes `changed` and hears `changed`/`reset`).
 */
import type { Disposer } from '../../../kernel/disposer';
import type { EntitlementInvalidation, EntitlementInvalidations } from '../domain/entitlement-invalidations';
import type { CacheInvalidations } from '../../../platform/caching/cache-invalidations';
import type { CacheSync } from '../../../platform/caching/cache-sync';

export const ENTITLEMENTS_CACHE = 'entitlements';

/** Organization ids and action keys never contain a space. */
const SEPARATOR = ' ';

export class SharedChannelEntitlementInvalidations implements EntitlementInvalidations {
  constructor(
    private readonly invalidations: CacheInvalidations,
    private readonly sync: CacheSync,
  ) {}

  async publish(change: EntitlementInvalidation): Promise<void> {
    if (change.type === 'changed') await this.invalidations.publish(ENTITLEMENTS_CACHE, `${change.organizationId}${SEPARATOR}${change.actionKey}`);
  }

  async subscribe(listener: (change: EntitlementInvalidation) => void): Promise<Disposer> {
    return this.sync.join(ENTITLEMENTS_CACHE, {
      changed: (key) => {
        const at = key.indexOf(SEPARATOR);
        if (at > 0) listener({ type: 'changed', organizationId: key.slice(0, at), actionKey: key.slice(at + 1) });
      },
      reset: () => listener({ type: 'reset' }),
    });
  }
}
