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
  // A counterpart that said when to come back (429/503 `Retry-After`, carried as retryAfterSeconds) is not asked sooner.
  const asked = isDomainError(error) && error.kind === 'upstream' ? Number(error.details.retryAfterSeconds) : NaN;
  if (Number.isFinite(asked) && asked > 0) return Math.max(scheduled, Math.min(asked, 86_400) * 1000);
  if (!isAvailabilityError(error)) return scheduled;
  return Math.max(scheduled, Math.min(OUTAGE_BACKOFF_CAP_MS, backoffDelay(OUTAGE_BACKOFF_MS, attempt)));
}

/** The name under which the BullMQ adapter registers `retryDelay` as a custom backoff. */
export const OUTAGE_AWARE_BACKOFF = 'outage-aware';

/**
 * A job that failed because our own database or Redis was unreachable is tried again after
 * OUTAGE_RETRY_MS without spending one of its attempts: the attempts are the budget of the
 * counterpart (a provisioner failing transiently must still get all of its tries after our
 * outage). So once the outage ends, every such job runs again within OUTAGE_RETRY_MS.
 * Domain errors are the counterpart's (an upstream error names its code), never ours.
 * OUTAGE_RETRY_LIMIT bounds the uncounted tries (an hour of them): an error wrongly taken
 * for an outage of ours still ends in the queue's own retries.
 */
export const OUTAGE_RETRY_MS = 5_000;
export const OUTAGE_RETRY_LIMIT = 720;

export function isOwnOutage(error: unknown): boolean {
  return !isDomainError(error) && !(error instanceof UnrecoverableJobError) && isAvailabilityError(error);
}
