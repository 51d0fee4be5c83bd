import { isDomainError } from '../domain/shared/errors';
import { UnrecoverableJobError } from '../domain/jobs/job-queue';

/** Input, license and not-found errors never get better by retrying; upstream ones may. */
export function isRetryable(error: unknown): boolean {
  if (error instanceof UnrecoverableJobError) return false;
  if (isDomainError(error)) return error.kind === 'upstream';
  return true;
}

export function backoffDelay(baseMs: number, attempt: number): number {
  return baseMs * 2 ** (attempt - 1);
}
