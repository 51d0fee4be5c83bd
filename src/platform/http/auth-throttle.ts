/**
 * Failed authentications, counted per client IP and per API key prefix. Every credential
 * check first TAKES one point from each budget in a single atomic increment, and only an
 * attempt that got a point inside the budget is verified: concurrent guesses can never
 * be evaluated more often than the budget allows, since each increment is its own answer.
 * A success (or any outcome that is not a failed authentication) gives its points back;
 * a refused attempt gives them back too, so the count is the failures actually evaluated.
 * Past the budget every check from that IP, or for that key, answers 429, even with a
 * correct key, so guessing costs the guesser a minute and no key lookup. Used by every
 * credential check: the API, the job dashboard, the hook endpoint and /metrics.
 *
 * An attempt refused only because others from this process are still being judged waits for
 * one of them to settle and tries again: a burst of correct keys gives its points back and
 * goes through, while a burst of wrong keys keeps them spent and meets the 429.
 *
 * Failing closed: when the shared store cannot answer, counting continues in this
 * process's memory rather than stopping, so an outage never makes guessing unlimited.
 */
import { MemoryRateLimitStore, tooManyRequests, type RateLimitBudget, type RateLimitDecision, type RateLimitStore, type StoreHealth } from './rate-limit';

/** `hik_<12>`: the indexed, non-secret part of an organization key. */
const KEY_PREFIX = /^(hik_[0-9A-Za-z]{12})/;

/** One attempt's hold on the budgets: settle it once the credential was judged. */
export interface AuthenticationAttempt {
  /** The credential was wrong (401): the points stay spent. */
  failed(): void;
  /** Anything else (accepted, forbidden, an outage): the points go back. */
  release(): Promise<void>;
}

const SETTLED: AuthenticationAttempt = { failed: () => undefined, release: async () => undefined };

export class AuthenticationThrottle {
  private readonly fallback = new MemoryRateLimitStore();
  /** Attempts of this process still being judged, per subject: each resolves when it is settled. */
  private readonly judging = new Map<string, Set<Promise<void>>>();

  constructor(
    private readonly store: RateLimitStore,
    private readonly budget: RateLimitBudget,
    private readonly health: StoreHealth,
  ) {}

  private subjects(ip: string, token: string | undefined): string[] {
    const prefix = token ? KEY_PREFIX.exec(token)?.[1] : undefined;
    return prefix ? [`ip:${ip}`, `key:${prefix}`] : [`ip:${ip}`];
  }

  /** Takes one point per subject from the shared store, or from memory when it cannot answer. */
  private async take(subjects: string[]): Promise<{ store: RateLimitStore; decisions: RateLimitDecision[] }> {
    try {
      const decisions = await Promise.all(subjects.map((subject) => this.store.consume(this.budget, subject)));
      this.health.succeeded();
      return { store: this.store, decisions };
    } catch (error) {
      this.health.failed(error);
      return { store: this.fallback, decisions: await Promise.all(subjects.map((subject) => this.fallback.consume(this.budget, subject))) };
    }
  }

  private async giveBack(store: RateLimitStore, subjects: string[]): Promise<void> {
    try {
      await Promise.all(subjects.map((subject) => store.refund(this.budget, subject)));
    } catch (error) {
      // The point stays spent until the window ends: the safe side of a refund that failed.
      this.health.failed(error);
    }
  }

  /**
   * Takes this attempt's points before the credential is looked at. Throws 429 when the
   * IP or the key prefix has spent its failure budget (the points are given back: only
   * evaluated failures count). The caller must settle the returned attempt.
   */
  async begin(ip: string, token: string | undefined): Promise<AuthenticationAttempt> {
    if (this.budget.points === 0) return SETTLED;
    const subjects = this.subjects(ip, token);
    for (;;) {
      const { store, decisions } = await this.take(subjects);
      const spent = decisions.find((d) => !d.allowed);
      if (!spent) return this.hold(store, subjects);
      await this.giveBack(store, subjects);
      const pending = subjects.flatMap((subject) => [...(this.judging.get(subject) ?? [])]);
      if (pending.length === 0) throw tooManyRequests(spent);
      await Promise.race(pending);
    }
  }

  /** The attempt that holds points until it is settled, known to later attempts meanwhile. */
  private hold(store: RateLimitStore, subjects: string[]): AuthenticationAttempt {
    let settle!: () => void;
    const settledPromise = new Promise<void>((resolve) => (settle = resolve));
    for (const subject of subjects) {
      let set = this.judging.get(subject);
      if (!set) this.judging.set(subject, (set = new Set()));
      set.add(settledPromise);
    }
    let settled = false;
    const finish = () => {
      settled = true;
      for (const subject of subjects) {
        const set = this.judging.get(subject);
        set?.delete(settledPromise);
        if (set?.size === 0) this.judging.delete(subject);
      }
      settle();
    };
    return {
      failed: () => {
        if (!settled) finish();
      },
      release: async () => {
        if (settled) return;
        await this.giveBack(store, subjects);
        finish();
      },
    };
  }
}
