/**
 * Money is an integer count of minor units (cents) with its currency: never a float, so
 * sums are exact. Adding amounts of two currencies is a bug, not a rounding question.
 */
export interface Money {
  amount: number;
  currency: string;
}

export const CURRENCY_PATTERN = /^[A-Z]{3}$/;

export function money(amount: number, currency: string): Money {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError(`money amount must be a non-negative integer of minor units, got ${amount}`);
  if (!CURRENCY_PATTERN.test(currency)) throw new RangeError(`currency must be an ISO 4217 code, got "${currency}"`);
  return { amount, currency };
}

export const zero = (currency: string): Money => money(0, currency);

export function add(a: Money, b: Money): Money {
  if (a.currency !== b.currency) throw new RangeError(`cannot add ${a.currency} and ${b.currency}`);
  return money(a.amount + b.amount, a.currency);
}

export function sum(amounts: readonly Money[], currency: string): Money {
  return amounts.reduce(add, zero(currency));
}

/** Signed difference in minor units (a − b); a plain integer since it may be negative. */
export function difference(a: Money, b: Money): number {
  if (a.currency !== b.currency) throw new RangeError(`cannot compare ${a.currency} and ${b.currency}`);
  return a.amount - b.amount;
}
