/**
 * Keeps every process's EntitlementCache consistent with license changes:
 *
 *   license change (LicenseChanges, after commit, in the process that made it)
 *     → this process's cache drops the entry at once (synchronously, before the host hears of it)
 *     → the change is published on EntitlementInvalidations (Redis pub/sub or in-process)
 *     → every other process's cache drops the entry when the message arrives
 *   subscriber reconnected (messages may have been lost) → every cache clears itself
 *
 * Dropping rather than writing the new value keeps ordering harmless: whatever order
 * two messages arrive in, the next lookup reads the source. The cache's TTL bounds the
 * damage of a message lost without a reconnect.
 */
import { inject, injectable } from 'tsyringe';
import { LicenseChanges, type LicenseChange } from './license-changes';
import type { Disposer } from '../../../kernel/disposer';
import { LOGGER, type Logger } from '../../../kernel/logger';
import { EntitlementCache } from './entitlement-cache';
import { ENTITLEMENT_INVALIDATIONS, type EntitlementInvalidation, type EntitlementInvalidations } from './entitlement-invalidations';

@injectable()
export class EntitlementSync {
  constructor(
    @inject(EntitlementCache) private readonly cache: EntitlementCache,
    @inject(LicenseChanges) private readonly changes: LicenseChanges,
    @inject(ENTITLEMENT_INVALIDATIONS) private readonly invalidations: EntitlementInvalidations,
    @inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Starts both directions; the disposer stops them. */
  async start(): Promise<Disposer> {
    const stopRemote = await this.invalidations.subscribe((change) => this.apply(change));
    const stopLocal = this.changes.onChange((change) => this.onLicenseChange(change));
    return () => {
      stopLocal();
      return stopRemote();
    };
  }

  private apply(change: EntitlementInvalidation): void {
    if (change.type === 'reset') {
      this.logger.info({}, 'entitlement cache cleared (invalidation channel reconnected)');
      this.cache.clear();
    } else {
      this.cache.invalidate(change.organizationId, change.actionKey);
    }
  }

  private async onLicenseChange(change: LicenseChange): Promise<void> {
    if (!('license' in change)) return; // subscription events come with one license event per license
    const { organizationId, actionKey } = change.license;
    this.cache.invalidate(organizationId, actionKey);
    try {
      await this.invalidations.publish({ type: 'changed', organizationId, actionKey });
    } catch (error) {
      // The other processes' entries expire within the TTL.
      this.logger.warn({ organizationId, actionKey, err: (error as Error).message }, 'publishing an entitlement invalidation failed');
    }
  }
}
