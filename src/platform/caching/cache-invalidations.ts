/**
 * The one channel that carries "this cached thing changed" between processes, for every
 * per-process cache (API keys, settings, listings, entitlements). Adapters: Redis pub/sub
 * on `<QUEUE_PREFIX>:caches` when Redis is configured, an in-process event emitter in
 * embedded mode (one process).
 *
 * `changed` names a cache and a key in it; `reset` tells listeners that messages may have
 * been missed (the subscriber reconnected), so every cache must clear itself.
 */
import type { Disposer } from '../../kernel/disposer';

export type CacheInvalidation = { type: 'changed'; cache: string; key: string } | { type: 'reset' };

export interface CacheInvalidations {
  /** Tells every other process (and this process's other activations) about a change. */
  publish(cache: string, key: string): Promise<void>;
  /** Listens to changes published elsewhere (never its own); resolves once listening. */
  subscribe(listener: (change: CacheInvalidation) => void): Promise<Disposer>;
}

export const CACHE_INVALIDATIONS = Symbol('CacheInvalidations');

export const cacheChannel = (queuePrefix: string) => `${queuePrefix}:caches`;
