/**
 * The host's listings from memory, when the host allows it: a ListingsDirectory whose
 * `caching` says how long its answers may be kept is wrapped by this per-process cache.
 * The host reports each change through `caching.onChange` in the process that made it;
 * that drops the listing here and, over the invalidation channel, in every other process.
 * Unknown listings are never cached.
 */
import type { Listing, ListingsDirectory } from '../domain/listing';
import type { Disposer } from '../../../kernel/disposer';
import type { CacheSync } from '../../../platform/caching/cache-sync';
import { ReadThroughCache } from '../../../platform/caching/read-through-cache';

export const LISTINGS_CACHE = 'listings';

export class CachedListingsDirectory implements ListingsDirectory {
  private readonly cache: ReadThroughCache<Listing>;

  constructor(
    private readonly inner: ListingsDirectory & { caching: NonNullable<ListingsDirectory['caching']> },
    private readonly sync: CacheSync,
    options: { ttlMs: number; maxEntries: number },
  ) {
    this.cache = new ReadThroughCache((listingId) => inner.get(listingId), { ...options, ttlMs: Math.min(options.ttlMs, inner.caching.maxAgeMs) });
    sync.join(LISTINGS_CACHE, { changed: (listingId) => this.cache.invalidate(listingId), reset: () => this.cache.clear() });
  }

  get(listingId: string): Promise<Listing | undefined> {
    return this.cache.get(listingId);
  }

  /** Hears the host's changes (in this process) until the disposer runs. */
  start(): Disposer {
    return this.inner.caching.onChange((listingId) => void this.sync.changed(LISTINGS_CACHE, listingId));
  }
}

/** The host's directory, cached when (and for as long as) it says its answers may be. */
export function cachedWhenAllowed(listings: ListingsDirectory, sync: CacheSync, options: { ttlMs: number; maxEntries: number }): ListingsDirectory {
  const caching = listings.caching;
  return caching && caching.maxAgeMs > 0 ? new CachedListingsDirectory({ get: (id) => listings.get(id), caching }, sync, options) : listings;
}
