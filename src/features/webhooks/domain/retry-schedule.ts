/**
 * When a failed webhook delivery is tried again. The delay doubles from `baseMs` per
 * attempt, capped at `maxDelayMs`, with ±20 % jitter (so a receiver that comes back is not
 * hit by every sender at once); attempts go on until `windowMs` after the first one, the
 * last landing exactly at the window's end. Defaults (30 s, 12 h, 3 days): retries after
 * about 30 s, 1, 2, 4, 8, 16, 32 min, 1.1, 2.1, 4.3, 8.5 h, then every 12 h until 72 h:
 * 16 retries, 17 attempts in all.
 */
export interface RetrySchedule {
  baseMs: number;
  maxDelayMs: number;
  windowMs: number;
}

export const JITTER = 0.2;

export function retryDelayMs(schedule: RetrySchedule, attempt: number, random: () => number = Math.random): number {
  const exponential = Math.min(schedule.baseMs * 2 ** Math.max(0, attempt - 1), schedule.maxDelayMs);
  return Math.round(exponential * (1 - JITTER + 2 * JITTER * random()));
}

/** The next attempt after `attempt` failed at `now`, or undefined when the window is over. */
export function nextAttemptAt(schedule: RetrySchedule, attempt: number, windowStartedAt: Date, now: Date, random?: () => number): Date | undefined {
  const windowEnd = windowStartedAt.getTime() + schedule.windowMs;
  if (now.getTime() >= windowEnd) return undefined;
  return new Date(Math.min(now.getTime() + retryDelayMs(schedule, attempt, random), windowEnd));
}

/** HTTP answers worth trying again: timeouts, conflicts, too early, rate limits, server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 425 || status === 429 || status >= 500 || (status >= 300 && status < 400);
}
