/**
 * Dunning, pure. A failed payment makes the organization `past_due`; it keeps every
 * license for the grace period (BILLING_GRACE_DAYS from the first failure), while
 * automatic collection retries on the schedule below; then it is `suspended`. Paying
 * (or voiding) every unpaid invoice restores it at once.
 */
import type { BillingAccount } from './billing-account';

/** Days after an invoice's first failed attempt when automatic collection retries it. */
export const RETRY_SCHEDULE_DAYS = [1, 3, 7, 12] as const;

const DAY_MS = 86_400_000;

/** When retry number `failures` (1 after the first failure) is due, or null when retries are over. */
export function nextRetryAt(firstFailureAt: Date, failures: number): Date | null {
  const days = RETRY_SCHEDULE_DAYS[failures - 1];
  return days === undefined ? null : new Date(firstFailureAt.getTime() + days * DAY_MS);
}

export const graceEndsAt = (pastDueSince: Date, graceDays: number): Date => new Date(pastDueSince.getTime() + graceDays * DAY_MS);

export function shouldSuspend(account: BillingAccount, now: Date, graceDays: number): boolean {
  return account.status === 'past_due' && !!account.pastDueSince && now.getTime() >= graceEndsAt(account.pastDueSince, graceDays).getTime();
}
