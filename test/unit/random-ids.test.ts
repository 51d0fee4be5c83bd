/** Ids and tokens: the alphabet, the length, no repeats, and every character equally likely. */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { hasPrefix, newId, randomToken } from '../../src/kernel/ids';

describe('random ids', () => {
  it('a token has exactly the asked length, in base62', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), (length) => {
        const token = randomToken(length);
        assert.equal(token.length, length);
        assert.match(token, /^[0-9A-Za-z]+$/);
      }),
    );
  });

  it('ids carry their prefix and do not repeat (50,000 drawn, across many pool refills)', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 50_000; i++) {
      const id = newId('app');
      assert.ok(hasPrefix(id, 'app'), id);
      seen.add(id);
    }
    assert.equal(seen.size, 50_000);
  });

  it('every character is about equally likely (chi-square over 620,000 characters)', () => {
    const counts = new Map<string, number>();
    for (const char of randomToken(620_000)) counts.set(char, (counts.get(char) ?? 0) + 1);
    assert.equal(counts.size, 62);
    const expected = 10_000;
    const chiSquare = [...counts.values()].reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0);
    // 61 degrees of freedom: p < 1e-6 above ~125. A biased draw (byte % 62 without rejection) scores about 4,000.
    assert.ok(chiSquare < 125, `chi-square ${chiSquare.toFixed(1)}`);
  });
});
