/**
 * Proration, per second. A monthly price accrues linearly over its period; what has
 * accrued from the period's start to an instant is rounded to the cent, half up:
 *
 *   accrued(price, period, t) = round(price × elapsedSeconds(t) / periodSeconds)
 *
 * An interval [a, b) costs accrued(b) − accrued(a). Because every charge and credit is
 * such a difference, they telescope: activating at a and deactivating at b nets exactly
 * the cost of [a, b), whatever else happened, and nothing is lost or gained to rounding.
 */
import { periodSeconds, type BillingPeriod } from './billing-period';

export function elapsedSeconds(period: BillingPeriod, at: Date): number {
  const seconds = Math.floor((at.getTime() - period.start.getTime()) / 1000);
  return Math.min(Math.max(seconds, 0), periodSeconds(period));
}

export function accrued(price: number, period: BillingPeriod, at: Date): number {
  const total = periodSeconds(period);
  // Integers only: price ≤ 1e8 cents and total ≤ 2.7e6 s keep the product far below 2^53.
  return Math.floor((2 * price * elapsedSeconds(period, at) + total) / (2 * total));
}

/** What is left of the period's price from `at` to the period's end. */
export const remainder = (price: number, period: BillingPeriod, at: Date): number => price - accrued(price, period, at);
