import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import { DomainError, isDomainError } from '../domain/shared/errors';
import type { Principal } from './principal';

export interface RateLimitDecision {
  allowed: boolean;
  remaining: number;
  resetSeconds: number;
}

/** Fixed-window counter. In memory per process, or on Redis shared by every API process. */
export interface RateLimitStore {
  hit(key: string, limit: number, windowSeconds: number): Promise<RateLimitDecision>;
}

export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  async hit(key: string, limit: number, windowSeconds: number): Promise<RateLimitDecision> {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      if (this.windows.size > 100_000) this.evictExpired(now);
      window = { count: 0, resetAt: now + windowSeconds * 1000 };
      this.windows.set(key, window);
    }
    window.count += 1;
    return {
      allowed: window.count <= limit,
      remaining: Math.max(0, limit - window.count),
      resetSeconds: Math.max(1, Math.ceil((window.resetAt - now) / 1000)),
    };
  }

  private evictExpired(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

/**
 * INCR and, on a key's first hit in its window, PEXPIRE, in one atomic script: every API
 * process sharing the Redis shares one counter per subject, and no crash between the
 * two commands can leave a counter without an expiry.
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { count, ttl }
`;

type RateLimitRedis = Redis & { hiRateLimitHit(key: string, windowMs: number): Promise<[number, number]> };

/** Fixed-window counters on Redis, shared by every API process; the window follows Redis's clock. */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: RateLimitRedis;

  /**
   * @param keyPrefix namespaces the counters (one installation, or one test, per prefix).
   *   It carries no hash tag on purpose: counters spread over a Redis Cluster's slots.
   * @param timeoutMs a slow Redis answers "unknown" (and the limiter lets the request
   *   through) rather than holding every request.
   */
  constructor(
    redis: Redis,
    private readonly keyPrefix: string,
    private readonly timeoutMs = 500,
  ) {
    if (!(redis as unknown as Partial<RateLimitRedis>).hiRateLimitHit) redis.defineCommand('hiRateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.redis = redis as unknown as RateLimitRedis;
  }

  async hit(key: string, limit: number, windowSeconds: number): Promise<RateLimitDecision> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('rate-limit store timed out')), this.timeoutMs);
    });
    try {
      const [count, ttlMs] = await Promise.race([this.redis.hiRateLimitHit(`${this.keyPrefix}:${key}`, windowSeconds * 1000), timeout]);
      return {
        allowed: count <= limit,
        remaining: Math.max(0, limit - count),
        resetSeconds: Math.max(1, Math.ceil(ttlMs / 1000)),
      };
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Redis key prefix of the counters of the installation whose queue prefix this is. */
export function rateLimitKeyPrefix(queuePrefix: string): string {
  return `${queuePrefix.replace(/[{}]/g, '')}:ratelimit`;
}

function subjectOf(principal: Principal, ip: string): string | undefined {
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

const tooMany = (decision: RateLimitDecision) =>
  new DomainError('rate_limited', 'rate_limited', `Too many requests; retry in ${decision.resetSeconds} s`, { retryAfterSeconds: decision.resetSeconds });

/** Per organization (API keys, candidate sessions) or per client IP (public calls), per minute. */
export function rateLimit(store: RateLimitStore, perMinute: number): RequestHandler {
  return async (req, res, next) => {
    const subject = subjectOf(res.locals.principal ?? { kind: 'public' }, req.ip ?? 'unknown');
    if (!subject || perMinute === 0) return next();
    try {
      const decision = await store.hit(subject, perMinute, 60);
      res.setHeader('RateLimit-Limit', String(perMinute));
      res.setHeader('RateLimit-Remaining', String(decision.remaining));
      res.setHeader('RateLimit-Reset', String(decision.resetSeconds));
      if (!decision.allowed) return next(tooMany(decision));
      next();
    } catch (error) {
      // A limiter outage must not take the API down with it.
      next();
    }
  };
}

/**
 * Counts failed authentications (401) per client IP, with the same budget: someone
 * guessing keys is slowed down like any public caller, and each guess past the budget
 * costs no key lookup's worth of answer (429 instead of 401).
 */
export function limitFailedAuthentication(store: RateLimitStore, perMinute: number): ErrorRequestHandler {
  return async (error: unknown, req, _res, next) => {
    if (perMinute === 0 || !isDomainError(error) || error.kind !== 'unauthenticated') return next(error);
    try {
      const decision = await store.hit(`authfail:${req.ip ?? 'unknown'}`, perMinute, 60);
      next(decision.allowed ? error : tooMany(decision));
    } catch {
      next(error);
    }
  };
}
