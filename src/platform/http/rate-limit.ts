/**
 * Rate limits on rate-limiter-flexible: fixed one-minute windows per budget, counted in
 * Redis (one atomic counter per subject, shared by every API process) or in memory.
 * Responses carry the IETF `RateLimit-Policy` and `RateLimit` headers (and the older
 * `RateLimit-Limit/Remaining/Reset` trio); over the budget: 429 `rate_limited` with
 * `Retry-After`. A store that cannot answer is logged once per outage and lets requests
 * through (fail open); failed-authentication counting never goes unlimited (see
 * auth-throttle.ts).
 */
import type { RequestHandler, Response } from 'express';
import type { RedisConnection } from '../queue/redis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { DomainError } from '../../kernel/errors';
import type { Logger } from '../../kernel/logger';
import type { Principal } from './principal';

/** A named budget: `points` requests per `windowSeconds`; 0 points means unlimited. */
export interface RateLimitBudget {
  name: 'api' | 'public' | 'connect' | 'auth_failures';
  points: number;
  windowSeconds: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetSeconds: number;
}

/** Where counters live. Rejects (never hangs) when it cannot answer. */
export interface RateLimitStore {
  readonly kind: 'redis' | 'memory';
  /** Counts `points` hits of `key` against `budget`. */
  consume(budget: RateLimitBudget, key: string, points?: number): Promise<RateLimitDecision>;
  /** Reads `key`'s count without adding to it. */
  peek(budget: RateLimitBudget, key: string): Promise<RateLimitDecision>;
  /** Takes back `points` counted for `key` (atomically, like consume). */
  refund(budget: RateLimitBudget, key: string, points?: number): Promise<void>;
}

function decision(budget: RateLimitBudget, res: RateLimiterRes | null): RateLimitDecision {
  const consumed = res?.consumedPoints ?? 0;
  return {
    allowed: consumed <= budget.points,
    limit: budget.points,
    remaining: Math.max(0, budget.points - consumed),
    resetSeconds: Math.max(1, Math.ceil((res?.msBeforeNext ?? budget.windowSeconds * 1000) / 1000)),
  };
}

/** One rate-limiter-flexible limiter per budget, made on first use. */
abstract class FlexibleStore implements RateLimitStore {
  abstract readonly kind: 'redis' | 'memory';
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  protected abstract create(budget: RateLimitBudget): RateLimiterAbstract;

  protected limiter(budget: RateLimitBudget): RateLimiterAbstract {
    const id = `${budget.name}:${budget.points}:${budget.windowSeconds}`;
    let limiter = this.limiters.get(id);
    if (!limiter) this.limiters.set(id, (limiter = this.create(budget)));
    return limiter;
  }

  protected run<T>(operation: () => Promise<T>): Promise<T> {
    return operation();
  }

  async consume(budget: RateLimitBudget, key: string, points = 1): Promise<RateLimitDecision> {
    try {
      return decision(budget, await this.run(() => this.limiter(budget).consume(key, points)));
    } catch (rejection) {
      // Over the budget, rate-limiter-flexible rejects with the counter itself; anything else is a store failure.
      if (rejection instanceof RateLimiterRes) return decision(budget, rejection);
      throw rejection;
    }
  }

  async peek(budget: RateLimitBudget, key: string): Promise<RateLimitDecision> {
    return decision(budget, await this.run(() => this.limiter(budget).get(key)));
  }

  async refund(budget: RateLimitBudget, key: string, points = 1): Promise<void> {
    await this.run(() => this.limiter(budget).reward(key, points));
  }
}

export class MemoryRateLimitStore extends FlexibleStore {
  readonly kind = 'memory' as const;

  protected create(budget: RateLimitBudget): RateLimiterAbstract {
    // points is the most a window may count, so a limited key keeps its count (and its 429s) visible.
    return new RateLimiterMemory({ keyPrefix: budget.name, points: Number.MAX_SAFE_INTEGER, duration: budget.windowSeconds });
  }
}

/** Counters in Redis, shared by every API process; the window follows Redis's clock. */
export class RedisRateLimitStore extends FlexibleStore {
  readonly kind = 'redis' as const;

  /**
   * @param keyPrefix namespaces the counters (one installation, or one test, per prefix).
   *   No hash tag on purpose: counters spread over a Redis Cluster's slots.
   * @param timeoutMs a slow Redis counts as unavailable rather than holding every request.
   */
  constructor(
    private readonly redis: RedisConnection,
    private readonly keyPrefix: string,
    private readonly timeoutMs = 500,
  ) {
    super();
  }

  protected create(budget: RateLimitBudget): RateLimiterAbstract {
    return new RateLimiterRedis({
      storeClient: this.redis,
      keyPrefix: `${this.keyPrefix}:${budget.name}`,
      points: Number.MAX_SAFE_INTEGER,
      duration: budget.windowSeconds,
      // Not connected: fail at once instead of queueing the command until Redis returns (and replaying it then).
      rejectIfRedisNotReady: true,
    });
  }

  protected override run<T>(operation: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`rate-limit store did not answer within ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    return Promise.race([operation(), timeout]).finally(() => clearTimeout(timer));
  }
}

/** Redis key prefix of the counters of the installation whose queue prefix this is. */
export function rateLimitKeyPrefix(queuePrefix: string): string {
  return `${queuePrefix.replace(/[{}]/g, '')}:ratelimit`;
}

/** Logs a store outage once when it starts and once when it ends, never once per request. */
export class StoreHealth {
  private down = false;

  constructor(
    private readonly logger: Logger,
    private readonly store: RateLimitStore,
  ) {}

  failed(error: unknown): void {
    if (this.down) return;
    this.down = true;
    this.logger.error({ store: this.store.kind, err: error }, 'rate-limit store unavailable: limits fail open, failed authentications are counted in memory');
  }

  succeeded(): void {
    if (!this.down) return;
    this.down = false;
    this.logger.info({ store: this.store.kind }, 'rate-limit store available again');
  }
}

export const tooManyRequests = (d: RateLimitDecision) =>
  new DomainError('rate_limited', 'rate_limited', `Too many requests; retry in ${d.resetSeconds} s`, { retryAfterSeconds: d.resetSeconds });

/** IETF draft-ietf-httpapi-ratelimit-headers: `RateLimit-Policy: "api";q=600;w=60`, `RateLimit: "api";r=599;t=42`. */
export function setRateLimitHeaders(res: Response, budget: RateLimitBudget, d: RateLimitDecision): void {
  res.setHeader('RateLimit-Policy', `"${budget.name}";q=${budget.points};w=${budget.windowSeconds}`);
  res.setHeader('RateLimit', `"${budget.name}";r=${d.remaining};t=${d.resetSeconds}`);
  res.setHeader('RateLimit-Limit', String(budget.points));
  res.setHeader('RateLimit-Remaining', String(d.remaining));
  res.setHeader('RateLimit-Reset', String(d.resetSeconds));
}

/** Who a request is counted as: its organization (API keys), its candidate session, or its client IP; operators are not limited. */
export function subjectOf(principal: Principal, ip: string): string | undefined {
  switch (principal.kind) {
    case 'organization':
      return `org:${principal.organizationId}`;
    case 'candidate':
      return `candidate:${principal.organizationId}:${principal.profileUserId}`;
    case 'operator':
      return undefined;
    case 'public':
      return `ip:${ip}`;
  }
}

/**
 * Counts the request against `budget` (per organization, or per client IP when public)
 * and answers 429 past it. A store failure lets the request through.
 */
export function rateLimit(store: RateLimitStore, budget: RateLimitBudget, health: StoreHealth): RequestHandler {
  return async (req, res, next) => {
    const subject = subjectOf(res.locals.principal ?? { kind: 'public' }, req.ip ?? 'unknown');
    if (!subject || budget.points === 0) return next();
    let d: RateLimitDecision;
    try {
      d = await store.consume(budget, subject);
      health.succeeded();
    } catch (error) {
      health.failed(error);
      return next();
    }
    setRateLimitHeaders(res, budget, d);
    next(d.allowed ? undefined : tooManyRequests(d));
  };
}
