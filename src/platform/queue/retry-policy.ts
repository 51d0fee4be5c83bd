import { isAvailabilityError } from '../../kernel/availability';
import { isDomainError } from '../../kernel/errors';
import { UnrecoverableJobError } from '../../kernel/job-queue';

/** Input, license and not-found errors never get better by retrying; upstream ones may. */
export function isRetryable(error: unknown): boolean {
  if (error instanceof UnrecoverableJobError) return false;
  if (isDomainError(error)) return error.kind === 'upstream';
  return true;
}

export function backoffDelay(baseMs: number, attempt: number): number {
  return baseMs * 2 ** (attempt - 1);
}

/** First wait after a failure caused by our own infrastructure; doubles per try, capped. */
export const OUTAGE_BACKOFF_MS = 5_000;
export const OUTAGE_BACKOFF_CAP_MS = 60_000;

/**
 * The wait before the next try. A queue's own schedule suits upstream trouble; a failure
 * because the database or Redis was unreachable waits 5, 10, 20, 40 s… (over a minute in
 * all with five tries), so a database restart does not use up a job's tries.
 */
export function retryDelay(baseMs: number, attempt: number, error: unknown): number {
  const scheduled = backoffDelay(baseMs, attempt);
  if (!isAvailabilityError(error)) return scheduled;
  return Math.max(scheduled, Math.min(OUTAGE_BACKOFF_CAP_MS, backoffDelay(OUTAGE_BACKOFF_MS, attempt)));
}

/** The name under which the BullMQ adapter registers `retryDelay` as a custom backoff. */
export const OUTAGE_AWARE_BACKOFF = 'outage-aware';
