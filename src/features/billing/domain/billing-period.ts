/**
 * Billing periods are calendar months in UTC: [the 1st 00:00:00Z, the next month's 1st).
 * One rule for every organization, whatever day it first bought something (its first
 * period is then the rest of that month, charged by proration).
 */
export interface BillingPeriod {
  start: Date;
  end: Date;
}

export function periodContaining(at: Date): BillingPeriod {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  return { start, end: new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1)) };
}

export const periodStartingAt = (start: Date): BillingPeriod => periodContaining(start);

export const nextPeriod = (period: BillingPeriod): BillingPeriod => periodContaining(period.end);

/** Whole seconds in the period (proration granularity is one second). */
export const periodSeconds = (period: BillingPeriod): number => Math.round((period.end.getTime() - period.start.getTime()) / 1000);

export const sameInstant = (a: Date | null | undefined, b: Date | null | undefined): boolean =>
  (a ?? null) === (b ?? null) || (!!a && !!b && a.getTime() === b.getTime());
