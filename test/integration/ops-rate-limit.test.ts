/**
 * Rate limits per organization key and per client IP: 429 + Retry-After in the error
 * model, in memory without Redis, and shared by every API process through Redis.
 */
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { RedisRateLimitStore } from '../../src/http/rate-limit';
import { createRedis } from '../../src/queue/redis';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { rememberSecretsIn } from '../helpers/log-capture';
import {
  containerArgv,
  freePort,
  killAll,
  readCompose,
  readEnvExample,
  runToCompletion,
  serviceEnvironment,
  startProcess,
  testSecrets,
  waitForHttp,
  type AppProcess,
} from '../helpers/processes';
import { requireRedis, uniqueQueuePrefix, usingRedis } from '../helpers/redis';
import { request, startTestHost, type TestHost } from '../helpers/test-host';

describe('rate limits', function () {
  this.timeout(60_000);

  describe(`in one process (${usingRedis() ? 'Redis' : 'memory'} store)`, () => {
    let t: TestHost;
    before(async () => {
      t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '3' } });
    });
    after(() => t?.close());

    it('limits each organization on its own: 429, Retry-After, error model', async () => {
      const a = await t.createOrganization('A');
      const b = await t.createOrganization('B');
      for (let i = 0; i < 3; i++) {
        const ok = await t.request('GET', '/v1/organization', { auth: a.apiKey });
        assert.equal(ok.status, 200);
        assert.equal(ok.headers.get('ratelimit-remaining'), String(2 - i));
      }
      const limited = await t.request('GET', '/v1/organization', { auth: a.apiKey });
      assert.equal(limited.status, 429);
      assert.equal(limited.body.error.code, 'rate_limited');
      assert.equal(limited.body.error.request_id, limited.headers.get('request-id'));
      const retryAfter = Number(limited.headers.get('retry-after'));
      assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
      assert.equal((await t.request('GET', '/v1/organization', { auth: b.apiKey })).status, 200, 'another organization is not affected');
      assert.equal((await t.request('GET', '/metrics', { auth: t.operatorKey })).status, 200, 'the operator is not limited');
    });

    it('limits public calls per client IP', async () => {
      for (let i = 0; i < 3; i++) assert.equal((await t.request('GET', '/healthz')).status, 200);
      const limited = await t.request('GET', '/healthz');
      assert.equal(limited.status, 429);
      assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    });
  });

  describe('unauthenticated callers', () => {
    let t: TestHost;
    before(async () => {
      t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '3' } });
    });
    after(() => t?.close());

    it('counts failed authentications per IP: a key guesser gets 429 instead of 401 past the budget', async () => {
      const org = await t.createOrganization('Guarded');
      for (let i = 0; i < 3; i++) {
        const guess = await t.request('GET', '/v1/organization', { auth: `hik_${'a'.repeat(12)}_${'b'.repeat(43)}` });
        assert.equal(guess.status, 401, guess.text);
      }
      const limited = await t.request('GET', '/v1/organization', { auth: `hik_${'c'.repeat(12)}_${'d'.repeat(43)}` });
      assert.equal(limited.status, 429);
      assert.equal(limited.body.error.code, 'rate_limited');
      assert.ok(Number(limited.headers.get('retry-after')) >= 1);
      assert.equal((await t.request('GET', '/v1/organization', { auth: org.apiKey })).status, 200, 'a valid key is not held back by the failures');
    });

    it('limits the connect popup per IP, with a page the candidate can read', async () => {
      const query = new URLSearchParams({ organization_id: 'org_unknown', listing_id: 'listing_unknown', origin: 'https://jobs.example' });
      for (let i = 0; i < 3; i++) assert.equal((await t.request('GET', `/v1/connect/profile?${query}`)).status, 400);
      const limited = await t.request('GET', `/v1/connect/profile?${query}`);
      assert.equal(limited.status, 429);
      assert.match(limited.headers.get('content-type') ?? '', /text\/html/);
      assert.match(limited.text, /rate_limited/);
      assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    });
  });

  describe('Redis store', () => {
    it('one atomic counter per key across connections, which expires with its window', async function () {
      requireRedis(this);
      const [one, two] = [createRedis(process.env.REDIS_URL!, 'client'), createRedis(process.env.REDIS_URL!, 'client')];
      try {
        const prefix = `hi-test-${randomBytes(6).toString('hex')}:ratelimit`;
        const [a, b] = [new RedisRateLimitStore(one, prefix), new RedisRateLimitStore(two, prefix)];
        const decisions = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).hit('org:x', 6, 1)));
        assert.deepEqual(decisions.map((d) => d.allowed).filter(Boolean).length, 6, 'exactly the limit is allowed, whichever connection asks');
        assert.ok(decisions.every((d) => d.resetSeconds === 1));
        assert.ok((await one.pttl(`${prefix}:org:x`)) > 0, 'the counter has an expiry');
        await new Promise((r) => setTimeout(r, 1100));
        assert.equal((await a.hit('org:x', 6, 1)).allowed, true, 'a new window starts after expiry');
        assert.equal((await b.hit('org:y', 6, 1)).remaining, 5, 'keys are independent');
      } finally {
        one.disconnect();
        two.disconnect();
      }
    });

    it('gives up quickly when Redis does not answer (the limiter then lets the request through)', async () => {
      const stalled = createRedis('redis://127.0.0.1:1', 'client');
      stalled.on('error', () => undefined);
      try {
        const store = new RedisRateLimitStore(stalled, 'hi-test:ratelimit', 200);
        const started = Date.now();
        await assert.rejects(store.hit('org:x', 1, 60));
        assert.ok(Date.now() - started < 2000);
      } finally {
        stalled.disconnect();
      }
    });
  });

  describe('two API processes', () => {
    let database: TestDatabase;
    const processes: AppProcess[] = [];
    let urls: string[] = [];
    let apiKey: string;

    before(async function () {
      if (!usingRedis() || !process.env.DATABASE_URL) return;
      database = await createTestDatabase();
      const vars = { ...readEnvExample(), ...testSecrets() };
      const ports = [await freePort(), await freePort()];
      const base = {
        ...serviceEnvironment(readCompose().services.api!, vars),
        DATABASE_URL: database.url!,
        REDIS_URL: process.env.REDIS_URL!,
        QUEUE_PREFIX: uniqueQueuePrefix(),
        RATE_LIMIT_PER_MINUTE: '5',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
      };
      const migrate = runToCompletion(containerArgv('migrate'), base);
      assert.equal(migrate.code, 0, migrate.stderr);
      const created = runToCompletion([...containerArgv('migrate').slice(0, 2), 'org', 'create', '--name', 'Limited', '--json'], base);
      assert.equal(created.code, 0, created.stderr);
      const org = JSON.parse(created.stdout);
      rememberSecretsIn(org);
      apiKey = org.api_key;
      urls = ports.map((port) => `http://127.0.0.1:${port}`);
      for (const [i, port] of ports.entries()) {
        processes.push(startProcess(`api-${i + 1}`, containerArgv('api'), { ...base, PORT: String(port), BASE_URL: urls[0]! }));
      }
      await Promise.all(processes.map((p, i) => waitForHttp(`${urls[i]}/healthz`, p)));
    });
    after(async () => {
      for (const p of processes) await p.stop('SIGTERM');
      await killAll();
      await database?.drop();
    });

    it('share one limit per organization and per IP through Redis', async function () {
      requireRedis(this);
      if (!process.env.DATABASE_URL) this.skip();
      // Readiness probes above used 2 of the 5 per-IP requests; the key has its own budget.
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) statuses.push((await request(urls[i % 2]!, 'GET', '/v1/organization', { auth: apiKey })).status);
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429], 'the sixth request is limited, whichever process serves it');
      const limited = await request(urls[1]!, 'GET', '/v1/organization', { auth: apiKey });
      assert.equal(limited.body.error.code, 'rate_limited');
      assert.ok(Number(limited.headers.get('retry-after')) >= 1);

      const publicStatuses: number[] = [];
      for (let i = 0; i < 5; i++) publicStatuses.push((await request(urls[i % 2]!, 'GET', '/readyz')).status);
      assert.ok(publicStatuses.includes(429), `per-IP limit shared too: ${publicStatuses}`);
      assert.equal(publicStatuses.filter((s) => s === 200).length, 3, `2 used by the probes + 3 = 5: ${publicStatuses}`);
    });
  });
});
