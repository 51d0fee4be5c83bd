/**
 * What a worker receives of a payout: the amount minus the platform's instant-pay fee, both
 * in integer minor units. The fee is the basis points rounded half up, never more than the
 * amount less one cent, so fee + net is always the amount: no cent is created or lost.
 */
export const MAX_FEE_BASIS_POINTS = 1000;

export interface PayoutSplit {
  amount: number;
  fee: number;
  net: number;
}

export function splitPayout(amount: number, feeBasisPoints: number): PayoutSplit {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new RangeError(`a payout amount is a positive integer of minor units, got ${amount}`);
  if (!Number.isInteger(feeBasisPoints) || feeBasisPoints < 0 || feeBasisPoints > MAX_FEE_BASIS_POINTS)
    throw new RangeError(`fee basis points must be an integer from 0 to ${MAX_FEE_BASIS_POINTS}, got ${feeBasisPoints}`);
  // Integer arithmetic in BigInt: amount × bps may exceed 2^53 for the largest amounts.
  const fee = Number((BigInt(amount) * BigInt(feeBasisPoints) * 2n + 10_000n) / 20_000n);
  const bounded = Math.min(fee, amount - 1);
  return { amount, fee: bounded, net: amount - bounded };
}
