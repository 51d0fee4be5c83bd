/**
 * API key → organization from memory: the ApiKeyRepository's `findByPrefix` answered by a
 * per-process cache. A key revoked or rotated here drops every cached key of its
 * organization in every process (CacheSync): "a revoked key stops at once" means within
 * the invalidation bound (well under a second), and at worst the TTL if a message is lost.
 * Unknown prefixes are never cached (a key created later must work at once).
 */
import type { ApiKeyRecord } from '../domain/organization';
import type { ApiKeyRepository } from '../domain/ports';
import type { CacheSync } from '../../../platform/caching/cache-sync';
import { ReadThroughCache } from '../../../platform/caching/read-through-cache';

export const API_KEYS_CACHE = 'api-keys';

export class CachedApiKeyRepository implements ApiKeyRepository {
  private readonly cache: ReadThroughCache<ApiKeyRecord>;

  constructor(
    private readonly inner: ApiKeyRepository,
    private readonly sync: CacheSync,
    options: { ttlMs: number; maxEntries: number },
  ) {
    this.cache = new ReadThroughCache((prefix) => inner.findByPrefix(prefix), options);
    // Messages name the organization: a rotation changes every key it has.
    sync.join(API_KEYS_CACHE, {
      changed: (organizationId) => this.cache.invalidateWhere((key) => key.organizationId === organizationId),
      reset: () => this.cache.clear(),
    });
  }

  findByPrefix(prefix: string): Promise<ApiKeyRecord | undefined> {
    return this.cache.get(prefix);
  }

  listForOrganization(organizationId: string): Promise<ApiKeyRecord[]> {
    return this.inner.listForOrganization(organizationId);
  }

  async rotate(newKey: ApiKeyRecord, expireOthersAt: Date): Promise<void> {
    await this.inner.rotate(newKey, expireOthersAt);
    await this.sync.changed(API_KEYS_CACHE, newKey.organizationId);
  }

  async revoke(prefix: string, at: Date): Promise<ApiKeyRecord | undefined> {
    const revoked = await this.inner.revoke(prefix, at);
    if (revoked) await this.sync.changed(API_KEYS_CACHE, revoked.organizationId);
    return revoked;
  }
}
