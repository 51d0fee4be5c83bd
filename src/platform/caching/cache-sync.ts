/**
 * Keeps every per-process cache consistent across processes over the one invalidation
 * channel:
 *
 *   a write in this process (a key revoked, settings saved, a listing changed, a license)
 *     → this process's cache drops the entry at once, before the write's caller hears back
 *     → the change is published on CacheInvalidations (Redis pub/sub, or in-process)
 *     → every other process's cache drops it when the message arrives (well under 1 s)
 *   subscriber reconnected (messages may have been lost) → every cache clears itself
 *
 * Dropping rather than writing the new value keeps ordering harmless: whatever order two
 * messages arrive in, the next lookup reads the source. Each cache's TTL bounds the
 * damage of a message lost without a reconnect.
 */
import type { Disposer } from '../../kernel/disposer';
import type { Logger } from '../../kernel/logger';
import type { CacheInvalidation, CacheInvalidations } from './cache-invalidations';

interface Participant {
  changed(key: string): void;
  reset(): void;
}

export class CacheSync {
  private readonly participants = new Map<string, Set<Participant>>();

  constructor(
    private readonly invalidations: CacheInvalidations,
    private readonly logger: Logger,
  ) {}

  /** A cache joins under its name: `changed(key)` for its keys, `reset()` when messages were lost. */
  join(cache: string, participant: Participant): Disposer {
    let set = this.participants.get(cache);
    if (!set) this.participants.set(cache, (set = new Set()));
    set.add(participant);
    return () => void set.delete(participant);
  }

  /** A change made in this process: drop it here now, then tell the others. Never throws. */
  async changed(cache: string, key: string): Promise<void> {
    this.deliver({ type: 'changed', cache, key });
    try {
      await this.invalidations.publish(cache, key);
    } catch (error) {
      // The other processes' entries expire within the TTL.
      this.logger.warn({ cache, err: (error as Error).message }, 'publishing a cache invalidation failed');
    }
  }

  /** Listens to the other processes' changes until the disposer runs. */
  start(): Promise<Disposer> {
    return this.invalidations.subscribe((change) => this.deliver(change));
  }

  private deliver(change: CacheInvalidation): void {
    if (change.type === 'reset') {
      this.logger.info({}, 'per-process caches cleared (invalidation channel reconnected)');
      for (const set of this.participants.values()) for (const p of set) p.reset();
      return;
    }
    for (const p of this.participants.get(change.cache) ?? []) p.changed(change.key);
  }
}
