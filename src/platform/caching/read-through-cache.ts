/**
 * A per-process read-through cache for read-mostly lookups (API key → organization,
 * settings, listings), on lru-cache's `fetchMethod`: answers from memory once warm, correct
 * across processes because every change drops the entry everywhere (CacheInvalidations), and
 * entries expire after `ttlMs` if a message is ever lost.
 *
 * - Concurrent misses of one key share one read (lru-cache's in-flight fetch).
 * - `invalidate` drops an entry at once, and a read in flight for it is not stored (it may
 *   predate the change): deleting a key aborts its fetch, and lru-cache stores a fetch's
 *   result only while that fetch is still the key's entry. With `ignoreFetchAbort` the caller
 *   that started the read still gets its answer.
 * - Misses (`undefined`) are cached only when `cacheMisses` is set (the writer of that data
 *   also goes through this process's invalidation, e.g. settings); lru-cache cannot hold
 *   `undefined`, so a miss is held as a marker.
 * - At most `maxEntries` are held; the least recently used go first.
 */
import { LRUCache } from 'lru-cache';

export interface ReadThroughCacheOptions {
  ttlMs: number;
  maxEntries: number;
  cacheMisses?: boolean;
  /** Milliseconds clock (tests move it). */
  nowMs?: () => number;
}

/** How a miss is held (lru-cache treats `undefined` as "not there"). */
const MISS: unique symbol = Symbol('miss');
type Held<V> = V | typeof MISS;

export class ReadThroughCache<V> {
  private readonly cache: LRUCache<string, NonNullable<Held<V>>>;
  /** Keys with a read in flight, so invalidateWhere can drop reads whose value it cannot see yet. */
  private readonly reading = new Set<string>();

  constructor(
    read: (key: string) => Promise<V | undefined>,
    private readonly options: ReadThroughCacheOptions,
  ) {
    const now = options.nowMs;
    this.cache = new LRUCache<string, NonNullable<Held<V>>>({
      max: options.maxEntries,
      // lru-cache counts an entry stale only once its age exceeds ttl; ours expire when it reaches ttlMs.
      ttl: Math.max(1, options.ttlMs - 1),
      // The test clock moves in jumps: read it every time rather than once per millisecond.
      ttlResolution: 0,
      ...(now ? { perf: { now } } : {}),
      ignoreFetchAbort: true,
      fetchMethod: async (key) => {
        this.reading.add(key);
        try {
          return ((await read(key)) ?? MISS) as NonNullable<Held<V>>;
        } finally {
          this.reading.delete(key);
        }
      },
    });
  }

  async get(key: string): Promise<V | undefined> {
    const held = await this.cache.fetch(key);
    if (held !== MISS) return held as V | undefined;
    // Held only to answer this read and the ones that shared it; not kept unless asked.
    if (!this.options.cacheMisses && this.cache.peek(key) === MISS) this.cache.delete(key);
    return undefined;
  }

  /** Drops one entry now; a read in flight for it will not be stored. */
  invalidate(key: string): void {
    this.cache.delete(key);
  }

  /** Drops every entry whose value matches (e.g. every key of one organization), and every read in flight. */
  invalidateWhere(matches: (value: V) => boolean): void {
    for (const [key, held] of [...this.cache.entries()]) if (held !== MISS && matches(held as V)) this.cache.delete(key);
    // A read in flight may return a matching value from before the change.
    for (const key of [...this.reading]) this.cache.delete(key);
  }

  /** Drops everything (invalidation messages may have been missed). */
  clear(): void {
    this.cache.clear();
  }

  /** Entries held, reads in flight aside. */
  get size(): number {
    let held = 0;
    for (const _ of this.cache.keys()) held++;
    return held;
  }
}
