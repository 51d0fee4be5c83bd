/** Instant-pay amounts: the fee and what the worker receives are integer cents that always add up to the amount. */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { MAX_FEE_BASIS_POINTS, splitPayout } from '../../src/features/payouts/domain/payout-amounts';

describe('payouts: splitting an amount into fee and net', () => {
  it('never loses or creates a cent, and the fee is the basis points rounded half up (below the amount)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), fc.integer({ min: 0, max: MAX_FEE_BASIS_POINTS }), (amount, bps) => {
        const { fee, net } = splitPayout(amount, bps);
        assert.ok(Number.isSafeInteger(fee) && Number.isSafeInteger(net));
        assert.equal(fee + net, amount);
        assert.ok(fee >= 0 && net >= 1);
        // Exact rational check: |fee − amount·bps/10 000| ≤ ½ unless capped at amount − 1.
        const exactTimes2 = BigInt(amount) * BigInt(bps) * 2n;
        if (fee < amount - 1) assert.ok(BigInt(fee) * 20_000n - exactTimes2 <= 10_000n && exactTimes2 - BigInt(fee) * 20_000n < 10_000n);
      }),
      { numRuns: 300 },
    );
  });

  it('a batch of payouts: the fees and nets add up to the batch total', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 10_000_000 }), { minLength: 1, maxLength: 50 }),
        fc.integer({ min: 0, max: MAX_FEE_BASIS_POINTS }),
        (amounts, bps) => {
          const splits = amounts.map((a) => splitPayout(a, bps));
          const total = amounts.reduce((s, a) => s + a, 0);
          assert.equal(
            splits.reduce((s, x) => s + x.fee + x.net, 0),
            total,
          );
        },
      ),
      { numRuns: 100 },
    );
  });

  it('examples: 1.5% of $125.50 is $1.88; half a cent rounds up; a 1-cent payout keeps its cent', () => {
    assert.deepEqual(splitPayout(12550, 150), { amount: 12550, fee: 188, net: 12362 });
    assert.deepEqual(splitPayout(100, 50), { amount: 100, fee: 1, net: 99 });
    assert.deepEqual(splitPayout(1, 1000), { amount: 1, fee: 0, net: 1 });
    assert.throws(() => splitPayout(0, 0), RangeError);
    assert.throws(() => splitPayout(1.5, 0), RangeError);
    assert.throws(() => splitPayout(100, 1001), RangeError);
  });
});
