/**
 * Failed authentications, counted per client IP and per API key prefix, and checked
 * BEFORE a credential is verified: past the budget every credential check from that IP,
 * or for that key, answers 429, even with a correct key, so guessing costs the guesser a
 * minute and no key lookup. Used by every credential check: the API, the job dashboard,
 * the hook endpoint and /metrics.
 *
 * Failing closed: when the shared store cannot answer, counting continues in this
 * process's memory rather than stopping, so an outage never makes guessing unlimited.
 */
import { MemoryRateLimitStore, tooManyRequests, type RateLimitBudget, type RateLimitDecision, type RateLimitStore, type StoreHealth } from './rate-limit';

/** `hik_<12>`: the indexed, non-secret part of an organization key. */
const KEY_PREFIX = /^(hik_[0-9A-Za-z]{12})/;

export class AuthenticationThrottle {
  private readonly fallback = new MemoryRateLimitStore();

  constructor(
    private readonly store: RateLimitStore,
    private readonly budget: RateLimitBudget,
    private readonly health: StoreHealth,
  ) {}

  private subjects(ip: string, token: string | undefined): string[] {
    const prefix = token ? KEY_PREFIX.exec(token)?.[1] : undefined;
    return prefix ? [`ip:${ip}`, `key:${prefix}`] : [`ip:${ip}`];
  }

  private async each(subjects: string[], run: (store: RateLimitStore, subject: string) => Promise<RateLimitDecision>): Promise<RateLimitDecision[]> {
    try {
      const decisions = await Promise.all(subjects.map((subject) => run(this.store, subject)));
      this.health.succeeded();
      return decisions;
    } catch (error) {
      this.health.failed(error);
      return Promise.all(subjects.map((subject) => run(this.fallback, subject)));
    }
  }

  /** Throws 429 when the IP or the key prefix has spent its failure budget. */
  async check(ip: string, token: string | undefined): Promise<void> {
    if (this.budget.points === 0) return;
    const decisions = await this.each(this.subjects(ip, token), (store, subject) => store.peek(this.budget, subject));
    const spent = decisions.find((d) => d.remaining === 0);
    if (spent) throw tooManyRequests(spent);
  }

  /** Counts one failed authentication against the IP and the key prefix. */
  async recordFailure(ip: string, token: string | undefined): Promise<void> {
    if (this.budget.points === 0) return;
    await this.each(this.subjects(ip, token), (store, subject) => store.consume(this.budget, subject));
  }
}
