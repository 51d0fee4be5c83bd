/**
 * A per-process read-through cache for read-mostly lookups (API key → organization,
 * settings, listings): answers from memory once warm, correct across processes because
 * every change drops the entry everywhere (CacheInvalidations) and entries expire after
 * `ttlMs` if a message is ever lost.
 *
 * - Concurrent misses of one key share one read.
 * - `invalidate` drops an entry at once, and a read in flight for it is not stored (it
 *   may predate the change): an invalidation is never overwritten by an older answer.
 * - Misses (`undefined`) are cached only when `cacheMisses` is set (the writer of that
 *   data also goes through this process's invalidation, e.g. settings).
 * - At most `maxEntries` are held; the oldest inserted go first.
 */
export interface ReadThroughCacheOptions {
  ttlMs: number;
  maxEntries: number;
  cacheMisses?: boolean;
  /** Milliseconds clock (tests move it). */
  nowMs?: () => number;
}

interface Entry<V> {
  value: V | undefined;
  expiresAt: number;
}

interface Load<V> {
  promise: Promise<V | undefined>;
  stale: boolean;
}

export class ReadThroughCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly loads = new Map<string, Load<V>>();
  private readonly nowMs: () => number;

  constructor(
    private readonly read: (key: string) => Promise<V | undefined>,
    private readonly options: ReadThroughCacheOptions,
  ) {
    this.nowMs = options.nowMs ?? Date.now;
  }

  get(key: string): Promise<V | undefined> {
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      if (entry.expiresAt > this.nowMs()) return Promise.resolve(entry.value);
      this.entries.delete(key);
    }
    return this.load(key);
  }

  /** Drops one entry now; a read in flight for it will not be stored. */
  invalidate(key: string): void {
    this.entries.delete(key);
    const load = this.loads.get(key);
    if (load) load.stale = true;
  }

  /** Drops every entry whose value matches (e.g. every key of one organization). */
  invalidateWhere(matches: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (entry.value !== undefined && matches(entry.value)) this.entries.delete(key);
    // A read in flight may return a matching value from before the change.
    for (const load of this.loads.values()) load.stale = true;
  }

  /** Drops everything (invalidation messages may have been missed). */
  clear(): void {
    this.entries.clear();
    for (const load of this.loads.values()) load.stale = true;
  }

  get size(): number {
    return this.entries.size;
  }

  private load(key: string): Promise<V | undefined> {
    const inFlight = this.loads.get(key);
    if (inFlight && !inFlight.stale) return inFlight.promise;
    const load: Load<V> = { stale: false, promise: undefined as unknown as Promise<V | undefined> };
    load.promise = this.read(key).then(
      (value) => {
        if (this.loads.get(key) === load) this.loads.delete(key);
        if (!load.stale && (value !== undefined || this.options.cacheMisses)) this.store(key, value);
        return value;
      },
      (error: unknown) => {
        if (this.loads.get(key) === load) this.loads.delete(key);
        throw error;
      },
    );
    this.loads.set(key, load);
    return load.promise;
  }

  private store(key: string, value: V | undefined): void {
    this.entries.delete(key); // re-inserted last: Map order is age order
    this.entries.set(key, { value, expiresAt: this.nowMs() + this.options.ttlMs });
    if (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }
}
