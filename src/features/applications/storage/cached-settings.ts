/**
 * Organization settings from memory: the ProfileApplySettingsRepository answered by a
 * per-process cache, dropped in every process when settings are saved (CacheSync). "No
 * saved settings" is cached too: saving goes through here, so it is invalidated like any
 * change.
 */
import type { ProfileApplySettings, ProfileApplySettingsRepository } from '../domain/profile-apply-settings';
import type { CacheSync } from '../../../platform/caching/cache-sync';
import { ReadThroughCache } from '../../../platform/caching/read-through-cache';

export const SETTINGS_CACHE = 'profile-apply-settings';

export class CachedProfileApplySettingsRepository implements ProfileApplySettingsRepository {
  private readonly cache: ReadThroughCache<ProfileApplySettings>;

  constructor(
    private readonly inner: ProfileApplySettingsRepository,
    private readonly sync: CacheSync,
    options: { ttlMs: number; maxEntries: number },
  ) {
    this.cache = new ReadThroughCache((organizationId) => inner.find(organizationId), { ...options, cacheMisses: true });
    sync.join(SETTINGS_CACHE, { changed: (organizationId) => this.cache.invalidate(organizationId), reset: () => this.cache.clear() });
  }

  find(organizationId: string): Promise<ProfileApplySettings | undefined> {
    return this.cache.get(organizationId);
  }

  async save(settings: ProfileApplySettings): Promise<void> {
    await this.inner.save(settings);
    await this.sync.changed(SETTINGS_CACHE, settings.organizationId);
  }
}
