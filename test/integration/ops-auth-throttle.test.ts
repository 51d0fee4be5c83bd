/**
 * Failed-authentication throttling under concurrency: 150 wrong keys sent at once from one
 * IP are never evaluated more often than the budget, on the memory store and on Redis;
 * correct keys give their point back, so a busy, honest client is never throttled.
 */
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { unauthenticated } from '../../src/kernel/errors';
import { AuthenticationThrottle } from '../../src/platform/http/auth-throttle';
import { authenticate } from '../../src/platform/http/authenticate';
import { errorHandler } from '../../src/platform/http/errors';
import type { CredentialVerifier } from '../../src/platform/http/principal';
import { MemoryRateLimitStore, RedisRateLimitStore, StoreHealth, type RateLimitStore } from '../../src/platform/http/rate-limit';
import { createRedis } from '../../src/platform/queue/redis';
import { testLogger } from '../helpers/log-capture';
import { requireRedis } from '../helpers/redis';

const BUDGET = { name: 'auth_failures', points: 20, windowSeconds: 60 } as const;
const GOOD_KEY = 'hik_goodgoodgood_secret';

/** A verifier that takes a few milliseconds, like a key lookup, and counts what it evaluated. */
function countingVerifier(): CredentialVerifier & { evaluated: number } {
  return {
    kind: 'organization',
    evaluated: 0,
    recognizes: (token) => token.startsWith('hik_'),
    async verify(token) {
      this.evaluated++;
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 20));
      if (token !== GOOD_KEY) throw unauthenticated('invalid_api_key', 'The credential is not recognized');
      return { kind: 'organization', organizationId: 'org_good' };
    },
  };
}

async function serve(store: RateLimitStore, verifier: CredentialVerifier) {
  const logger = testLogger();
  const app = express();
  app.set('trust proxy', 'loopback');
  const throttle = new AuthenticationThrottle(store, BUDGET, new StoreHealth(logger, store));
  app.get('/private', authenticate(['organization'], [verifier], throttle), (_req, res) => res.json({ ok: true }));
  app.use(errorHandler(logger));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const call = (key: string, ip: string) =>
    fetch(`${base}/private`, { headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': ip } }).then((r) => r.status);
  return { call, close: () => new Promise((r) => server.close(r)) };
}

function behavesUnderConcurrency(store: () => RateLimitStore) {
  it('150 concurrent wrong keys from one IP: at most the budget evaluated, the rest 429', async () => {
    const verifier = countingVerifier();
    const app = await serve(store(), verifier);
    try {
      // Distinct key prefixes, so only the IP's budget stands between the guesser and the lookups.
      const statuses = await Promise.all(Array.from({ length: 150 }, () => app.call(`hik_${randomBytes(6).toString('hex')}_guess`, '203.0.113.7')));
      assert.ok(verifier.evaluated <= BUDGET.points, `${verifier.evaluated} evaluated against a budget of ${BUDGET.points}`);
      assert.equal(statuses.filter((s) => s === 401).length, verifier.evaluated);
      assert.equal(statuses.filter((s) => s === 429).length, 150 - verifier.evaluated);
      assert.equal(await app.call(GOOD_KEY, '203.0.113.7'), 429, 'even the right key waits out the window from that IP');
      assert.equal(await app.call(GOOD_KEY, '203.0.113.8'), 200, 'other IPs are not affected');
    } finally {
      await app.close();
    }
  });

  it('correct keys give their point back: 60 concurrent successes and then the full failure budget', async () => {
    const verifier = countingVerifier();
    const app = await serve(store(), verifier);
    try {
      const ok = await Promise.all(Array.from({ length: 60 }, () => app.call(GOOD_KEY, '198.51.100.9')));
      assert.deepEqual([...new Set(ok)], [200]);
      const wrong = [];
      for (let i = 0; i < BUDGET.points + 2; i++) wrong.push(await app.call(`hik_${randomBytes(6).toString('hex')}_guess`, '198.51.100.9'));
      assert.deepEqual(wrong, [...Array(BUDGET.points).fill(401), 429, 429]);
    } finally {
      await app.close();
    }
  });
}

describe('failed-authentication throttle under concurrency', function () {
  this.timeout(30_000);

  describe('memory store', () => behavesUnderConcurrency(() => new MemoryRateLimitStore()));

  describe('Redis store', function () {
    const redis = process.env.REDIS_URL ? createRedis(process.env.REDIS_URL, 'client') : undefined;
    before(async function () {
      requireRedis(this);
      await redis!.ping(); // connected: a first command before that would be counted in memory (the outage path)
    });
    after(() => redis?.disconnect());
    behavesUnderConcurrency(() => new RedisRateLimitStore(redis!, `hi-test-${randomBytes(6).toString('hex')}:ratelimit`, 2_000));
  });
});
