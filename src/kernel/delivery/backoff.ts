/**
 * When a failed delivery is tried again. The delay doubles from `baseMs` per attempt,
 * capped at `maxDelayMs`, with ±20 % jitter (so a receiver that comes back is not hit by
 * every sender at once); attempts go on until `windowMs` after the first one, the last
 * landing exactly at the window's end. A counterpart that said when to come back (429/503
 * `Retry-After`) is not asked sooner, within the window. Webhook deliveries use it with
 * their configured schedule (30 s, 12 h, 3 days by default: about 17 attempts).
 */
export interface RetrySchedule {
  baseMs: number;
  maxDelayMs: number;
  windowMs: number;
}

export const JITTER = 0.2;

export function retryDelayMs(schedule: Pick<RetrySchedule, 'baseMs' | 'maxDelayMs'>, attempt: number, random: () => number = Math.random): number {
  const exponential = Math.min(schedule.baseMs * 2 ** Math.max(0, attempt - 1), schedule.maxDelayMs);
  return Math.round(exponential * (1 - JITTER + 2 * JITTER * random()));
}

/**
 * The next attempt after `attempt` failed at `now`, or undefined when the window is over.
 * `retryAfterSeconds` (the counterpart's `Retry-After`) moves it later, never past the window's end.
 */
export function nextAttemptAt(
  schedule: RetrySchedule,
  attempt: number,
  windowStartedAt: Date,
  now: Date,
  random?: () => number,
  retryAfterSeconds?: number,
): Date | undefined {
  const windowEnd = windowStartedAt.getTime() + schedule.windowMs;
  if (now.getTime() >= windowEnd) return undefined;
  const scheduled = Math.min(now.getTime() + retryDelayMs(schedule, attempt, random), windowEnd);
  const asked = retryAfterSeconds === undefined || !Number.isFinite(retryAfterSeconds) ? 0 : now.getTime() + retryAfterSeconds * 1000;
  return new Date(asked > scheduled ? Math.min(asked, windowEnd) : scheduled);
}

/** HTTP answers worth trying again: timeouts, conflicts, too early, rate limits, redirects (not followed), server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 425 || status === 429 || status >= 500 || (status >= 300 && status < 400);
}
