/**
 * The per-process entitlement cache: "does organization O hold an active license for
 * action A?" answered from memory in O(1) (two Map lookups and a time comparison).
 *
 * - Misses read the EntitlementSource once (concurrent misses of one key share the read).
 * - Entries live at most `ttlMs`: if an invalidation message is ever lost, an answer is
 *   stale for at most that long.
 * - `invalidate` drops an entry at once; a read that was in flight when the entry was
 *   invalidated is not stored (it may predate the change), so an invalidation can never
 *   be overwritten by an older answer.
 * - At most `maxEntries` answers are held; the oldest are dropped first.
 */
import { inject, injectable } from 'tsyringe';
import { ENTITLEMENT_SOURCE, type EntitlementSource } from './entitlement-source';

export interface EntitlementCacheOptions {
  ttlMs: number;
  maxEntries: number;
  /** Milliseconds clock (tests move it). */
  nowMs?: () => number;
}

export const ENTITLEMENT_CACHE_OPTIONS = Symbol('EntitlementCacheOptions');

interface Entry {
  active: boolean;
  expiresAt: number;
}

interface Load {
  promise: Promise<boolean>;
  stale: boolean;
}

@injectable()
export class EntitlementCache {
  /** organization → action → answer. Nested maps: no key string is built per lookup. */
  private readonly entries = new Map<string, Map<string, Entry>>();
  private readonly loads = new Map<string, Map<string, Load>>();
  private size = 0;
  /** organization → its refusal reason (refusalReason); `standingGeneration` moves on every invalidation. */
  private readonly standing = new Map<string, { reason: string | undefined; expiresAt: number }>();
  private standingGeneration = 0;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly nowMs: () => number;

  constructor(
    @inject(ENTITLEMENT_SOURCE) private readonly source: EntitlementSource,
    @inject(ENTITLEMENT_CACHE_OPTIONS) options: EntitlementCacheOptions,
  ) {
    this.ttlMs = options.ttlMs;
    this.maxEntries = Math.max(1, options.maxEntries);
    this.nowMs = options.nowMs ?? Date.now;
  }

  /** The cached answer, or undefined when there is none (or it expired). Synchronous. */
  peek(organizationId: string, actionKey: string): boolean | undefined {
    const entry = this.entries.get(organizationId)?.get(actionKey);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.nowMs()) {
      this.drop(organizationId, actionKey);
      return undefined;
    }
    return entry.active;
  }

  async isActive(organizationId: string, actionKey: string): Promise<boolean> {
    const cached = this.peek(organizationId, actionKey);
    return cached !== undefined ? cached : this.load(organizationId, actionKey);
  }

  /** Reads the source (sharing a read already in flight) and caches the answer. */
  load(organizationId: string, actionKey: string): Promise<boolean> {
    const inFlight = this.loads.get(organizationId)?.get(actionKey);
    if (inFlight && !inFlight.stale) return inFlight.promise;
    const load: Load = { stale: false, promise: undefined as unknown as Promise<boolean> };
    load.promise = this.source.isActive(organizationId, actionKey).then(
      (active) => {
        this.forgetLoad(organizationId, actionKey, load);
        if (!load.stale) this.store(organizationId, actionKey, active);
        return active;
      },
      (error: unknown) => {
        this.forgetLoad(organizationId, actionKey, load);
        throw error;
      },
    );
    let perOrg = this.loads.get(organizationId);
    if (!perOrg) this.loads.set(organizationId, (perOrg = new Map()));
    perOrg.set(actionKey, load);
    return load.promise;
  }

  /** Drops one answer now; a read in flight for it will not be cached. */
  invalidate(organizationId: string, actionKey: string): void {
    this.drop(organizationId, actionKey);
    this.forgetStanding(organizationId);
    const load = this.loads.get(organizationId)?.get(actionKey);
    if (load) load.stale = true;
  }

  /** Drops every answer (messages may have been missed). */
  clear(): void {
    this.entries.clear();
    this.standing.clear();
    this.standingGeneration += 1;
    this.size = 0;
    for (const perOrg of this.loads.values()) for (const load of perOrg.values()) load.stale = true;
  }

  /**
   * Why this organization's calls are refused when they are (billing: `payment_required`),
   * kept beside its answers: any invalidation of the organization drops it (a standing change
   * invalidates every action of the organization), so it is never older than they are, and
   * the hook path reads the billing account once per organization and TTL, not once per call.
   */
  async refusalReason(organizationId: string, load: () => Promise<string | undefined>): Promise<string | undefined> {
    const cached = this.standing.get(organizationId);
    if (cached && cached.expiresAt > this.nowMs()) return cached.reason;
    const generation = this.standingGeneration;
    const reason = await load();
    // Invalidated while reading: the answer may predate the change, so it is not kept.
    if (generation === this.standingGeneration) {
      if (this.standing.size >= this.maxEntries) this.standing.delete(this.standing.keys().next().value!);
      this.standing.set(organizationId, { reason, expiresAt: this.nowMs() + this.ttlMs });
    }
    return reason;
  }

  private forgetStanding(organizationId: string): void {
    this.standing.delete(organizationId);
    this.standingGeneration += 1;
  }

  get entryCount(): number {
    return this.size;
  }

  private store(organizationId: string, actionKey: string, active: boolean): void {
    let perOrg = this.entries.get(organizationId);
    if (!perOrg) {
      perOrg = new Map();
      this.entries.set(organizationId, perOrg);
    }
    const added = !perOrg.has(actionKey);
    perOrg.set(actionKey, { active, expiresAt: this.nowMs() + this.ttlMs });
    if (added) {
      this.size += 1;
      if (this.size > this.maxEntries) this.evictOldest(organizationId);
    }
  }

  /** Drops the organization inserted first (Map order), with all its answers; never `keep`. */
  private evictOldest(keep: string): void {
    for (const [organizationId, perOrg] of this.entries) {
      if (organizationId === keep) continue;
      this.size -= perOrg.size;
      this.entries.delete(organizationId);
      return;
    }
  }

  private drop(organizationId: string, actionKey: string): void {
    const perOrg = this.entries.get(organizationId);
    if (perOrg?.delete(actionKey)) {
      this.size -= 1;
      if (perOrg.size === 0) this.entries.delete(organizationId);
    }
  }

  private forgetLoad(organizationId: string, actionKey: string, load: Load): void {
    const perOrg = this.loads.get(organizationId);
    if (perOrg?.get(actionKey) === load) {
      perOrg.delete(actionKey);
      if (perOrg.size === 0) this.loads.delete(organizationId);
    }
  }
}
