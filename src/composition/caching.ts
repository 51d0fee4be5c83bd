/**
 * Per-process caches for the read-mostly lookups of every request (API key →
 * organization, organization settings, the host's listings when it allows it) and the
 * one invalidation channel they share with the entitlement cache. Registered after every
 * other module: it wraps the ports those modules registered.
 */
import { instanceCachingFactory } from 'tsyringe';
import { ENTITLEMENT_INVALIDATIONS, type EntitlementInvalidations } from '../features/licensing/domain/entitlement-invalidations';
import { LISTINGS_DIRECTORY, type ListingsDirectory } from '../features/listings/domain/listing';
import { API_KEY_REPOSITORY } from '../features/organizations/domain/ports';
import { PROFILE_APPLY_SETTINGS_REPOSITORY } from '../features/applications/domain/profile-apply-settings';
import { LOGGER, type Logger } from '../kernel/logger';
import { CACHE_INVALIDATIONS, cacheChannel, type CacheInvalidations } from '../platform/caching/cache-invalidations';
import { CacheSync } from '../platform/caching/cache-sync';
import { CachedApiKeyRepository } from '../features/organizations/storage/cached-api-keys';
import { CachedListingsDirectory, cachedWhenAllowed } from '../features/listings/storage/cached-listings';
import { CachedProfileApplySettingsRepository } from '../features/applications/storage/cached-settings';
import { InProcessCacheInvalidations } from '../platform/caching/in-process-cache-invalidations';
import { RedisCacheInvalidations } from '../platform/caching/redis-cache-invalidations';
import { SharedChannelEntitlementInvalidations } from '../features/licensing/storage/shared-channel-entitlement-invalidations';
import { createRedis, redisTargetOf, type RedisConnection } from '../platform/queue/redis';
import { KnexApiKeyRepository } from '../features/organizations/storage/organization-repository';
import { KnexProfileApplySettingsRepository } from '../features/applications/storage/profile-apply-settings-repository';
import { REDIS_REQUEST } from './infrastructure';
import type { PluginModule } from '../platform/composition/plugin-module';

/**
 * Entries each process keeps per cache (the oldest go first). Bounds memory: a cached
 * listing with a few questions is about 1 KB, a key or settings record a few hundred bytes.
 */
const MAX_KEYS = 50_000;
const MAX_SETTINGS = 50_000;
const MAX_LISTINGS = 50_000;

export const cachingModule: PluginModule = {
  name: 'caching',
  register(container, { config, logger, host }) {
    // One TTL for every per-process cache: the bound on staleness if a message is lost.
    const ttlMs = config.entitlementCacheTtlSeconds * 1000;
    const redisTarget = redisTargetOf(config);
    const channel = cacheChannel(config.queuePrefix);
    container.register<CacheInvalidations>(CACHE_INVALIDATIONS, {
      useFactory: instanceCachingFactory((c) =>
        redisTarget // Published on the fail-fast connection: a change made during a Redis outage answers at once
          ? // (the others' entries expire within the TTL) instead of waiting for a reconnect.
            new RedisCacheInvalidations(c.resolve<RedisConnection>(REDIS_REQUEST), () => createRedis(redisTarget, 'subscriber'), channel, logger)
          : new InProcessCacheInvalidations(channel),
      ),
    });
    container.register(CacheSync, {
      useFactory: instanceCachingFactory((c) => new CacheSync(c.resolve<CacheInvalidations>(CACHE_INVALIDATIONS), c.resolve<Logger>(LOGGER))),
    });
    container.register<EntitlementInvalidations>(ENTITLEMENT_INVALIDATIONS, {
      useFactory: instanceCachingFactory(
        (c) => new SharedChannelEntitlementInvalidations(c.resolve<CacheInvalidations>(CACHE_INVALIDATIONS), c.resolve(CacheSync)),
      ),
    });
    container.register(API_KEY_REPOSITORY, {
      useFactory: instanceCachingFactory(
        (c) => new CachedApiKeyRepository(c.resolve(KnexApiKeyRepository), c.resolve(CacheSync), { ttlMs, maxEntries: MAX_KEYS }),
      ),
    });
    container.register(PROFILE_APPLY_SETTINGS_REPOSITORY, {
      useFactory: instanceCachingFactory(
        (c) =>
          new CachedProfileApplySettingsRepository(c.resolve(KnexProfileApplySettingsRepository), c.resolve(CacheSync), { ttlMs, maxEntries: MAX_SETTINGS }),
      ),
    });
    container.register<ListingsDirectory>(LISTINGS_DIRECTORY, {
      useFactory: instanceCachingFactory((c) => cachedWhenAllowed(host.listings, c.resolve(CacheSync), { ttlMs, maxEntries: MAX_LISTINGS })),
    });
  },
  async start(container) {
    const listings = container.resolve<ListingsDirectory>(LISTINGS_DIRECTORY);
    const stopListings = listings instanceof CachedListingsDirectory ? listings.start() : undefined;
    const stopSync = await container.resolve(CacheSync).start();
    return async () => {
      stopListings?.();
      await stopSync();
    };
  },
};
