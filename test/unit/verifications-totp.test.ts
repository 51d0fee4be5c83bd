/** TOTP (otplib behind `totpCode`/`matchingStep`) against the RFC 6238 Appendix B vectors, and its ±1 step window. */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { matchingStep, totpCode } from '../../src/features/verifications/domain/totp-factors';

describe('verifications: TOTP (RFC 6238)', () => {
  it('matches the RFC 6238 Appendix B vectors (HMAC-SHA1, 8 digits)', () => {
    const secret = new TextEncoder().encode('12345678901234567890');
    const vectors: [number, string][] = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ];
    for (const [time, code] of vectors) assert.equal(totpCode(secret, time, 8), code, `T=${time}`);
  });

  it('a code is accepted one step either side and no further; a step is never accepted twice', () => {
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    fc.assert(
      fc.property(fc.integer({ min: 1_000_000, max: 4_000_000_000 }), fc.integer({ min: -4, max: 4 }), (time, offset) => {
        const code = totpCode(secret, time);
        const step = Math.floor(time / 30);
        const checkedAt = (step + offset) * 30 + 15;
        const found = matchingStep(secret, code, checkedAt, null);
        if (Math.abs(offset) <= 1) {
          assert.equal(found, step);
          assert.equal(matchingStep(secret, code, checkedAt, step), undefined, 'used once');
        } else if (found !== undefined) {
          // Another step may produce the same six digits by chance (1 in 10^6): never the code's own step.
          assert.notEqual(found, step);
        }
      }),
      { numRuns: 100 },
    );
  });
});
