/** The webhook retry schedule: exponential with jitter, capped, ending exactly at the window's end. */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { isRetryableStatus, JITTER, nextAttemptAt, retryDelayMs } from '../../src/kernel/delivery/backoff';
import { isPublicAddress } from '../../src/platform/network/address-policy';
import { parseRetryAfter } from '../../src/features/webhooks/sending/http-webhook-sender';

const DEFAULT = { baseMs: 30_000, maxDelayMs: 12 * 3_600_000, windowMs: 3 * 86_400_000 };

describe('webhook retry schedule', () => {
  it('doubles from the base, within ±20 % jitter, capped at the maximum delay', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, r) => {
        const exact = Math.min(DEFAULT.baseMs * 2 ** (attempt - 1), DEFAULT.maxDelayMs);
        const delay = retryDelayMs(DEFAULT, attempt, () => r);
        assert.ok(delay >= Math.floor(exact * (1 - JITTER)) && delay <= Math.ceil(exact * (1 + JITTER)), `${attempt}: ${delay} vs ${exact}`);
      }),
    );
  });

  it('never schedules past the window, and stops once the window is over', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: DEFAULT.windowMs + 3_600_000 }), (attempt, elapsed) => {
        const start = new Date(0);
        const next = nextAttemptAt(DEFAULT, attempt, start, new Date(elapsed));
        if (elapsed >= DEFAULT.windowMs) assert.equal(next, undefined);
        else assert.ok(next && next.getTime() > elapsed && next.getTime() <= DEFAULT.windowMs);
      }),
    );
  });

  it('with the defaults, spans three days in about 17 attempts', () => {
    let now = 0;
    let attempts = 1;
    for (;;) {
      const next = nextAttemptAt(DEFAULT, attempts, new Date(0), new Date(now), () => 0.5);
      if (!next) break;
      now = next.getTime();
      attempts += 1;
    }
    assert.equal(now, DEFAULT.windowMs);
    assert.ok(attempts >= 15 && attempts <= 19, `${attempts} attempts`);
  });

  it('retries 408, 409, 425, 429, 3xx and 5xx, not other 4xx', () => {
    for (const status of [408, 409, 425, 429, 500, 502, 503, 504, 301, 307]) assert.equal(isRetryableStatus(status), true, String(status));
    for (const status of [400, 401, 403, 404, 405, 410, 413, 422]) assert.equal(isRetryableStatus(status), false, String(status));
  });

  it('only global unicast addresses are public', () => {
    for (const a of ['93.184.216.34', '2606:4700::6810:84e5', '8.8.8.8']) assert.equal(isPublicAddress(a), true, a);
    for (const a of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00:ec2::254',
      '::ffff:127.0.0.1',
      '224.0.0.1',
      'not-an-ip',
    ]) {
      assert.equal(isPublicAddress(a), false, a);
    }
  });

  it('reads Retry-After as seconds or an HTTP date; anything else is ignored', () => {
    const now = Date.parse('2026-11-27T12:00:00Z');
    assert.equal(parseRetryAfter('120', now), 120);
    assert.equal(parseRetryAfter('Fri, 27 Nov 2026 12:01:30 GMT', now), 90);
    assert.equal(parseRetryAfter('Fri, 27 Nov 2026 11:00:00 GMT', now), 0);
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter(undefined, now), undefined);
  });
});
