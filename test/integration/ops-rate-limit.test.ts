/**
 * Rate limits per organization key and per client IP: 429 + Retry-After in the error
 * model, in memory without Redis, and shared by every API process through Redis.
 */
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Logger } from '../../src/kernel/logger';
import { AuthenticationThrottle } from '../../src/platform/http/auth-throttle';
import { authenticate } from '../../src/platform/http/authenticate';
import { errorHandler } from '../../src/platform/http/errors';
import { rateLimit, RedisRateLimitStore, StoreHealth, type RateLimitBudget } from '../../src/platform/http/rate-limit';
import { createRedis } from '../../src/platform/queue/redis';
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
import { skipBecause } from '../helpers/skip';

describe('rate limits', function () {
  this.timeout(60_000);

  describe(`in one process (${usingRedis() ? 'Redis' : 'memory'} store)`, () => {
    let t: TestHost;
    before(async () => {
      t = await startTestHost({
        env: { RATE_LIMIT_PER_MINUTE: '3', RATE_LIMIT_PUBLIC_PER_MINUTE: '3', RATE_LIMIT_CONNECT_PER_MINUTE: '3', RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '3' },
      });
    });
    after(() => t?.close());

    it('limits each organization on its own: 429, Retry-After, error model, IETF RateLimit headers', async () => {
      const a = await t.createOrganization('A');
      const b = await t.createOrganization('B');
      for (let i = 0; i < 3; i++) {
        const ok = await t.request('GET', '/v1/organization', { auth: a.apiKey });
        assert.equal(ok.status, 200);
        assert.equal(ok.headers.get('ratelimit-policy'), '"api";q=3;w=60');
        assert.match(ok.headers.get('ratelimit') ?? '', new RegExp(`^"api";r=${2 - i};t=\\d+$`));
        assert.equal(ok.headers.get('ratelimit-remaining'), String(2 - i));
      }
      const limited = await t.request('GET', '/v1/organization', { auth: a.apiKey });
      assert.equal(limited.status, 429);
      assert.equal(limited.body.error.code, 'rate_limited');
      assert.equal(limited.body.error.request_id, limited.headers.get('request-id'));
      assert.match(limited.headers.get('ratelimit') ?? '', /^"api";r=0;t=\d+$/);
      const retryAfter = Number(limited.headers.get('retry-after'));
      assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
      assert.equal((await t.request('GET', '/v1/organization', { auth: b.apiKey })).status, 200, 'another organization is not affected');
      assert.equal((await t.request('GET', '/metrics', { auth: t.operatorKey })).status, 200, 'the operator is not limited');
    });

    it('never limits health and readiness; public reads have their own per-IP budget', async () => {
      const ip = { 'x-forwarded-for': '203.0.113.10' };
      for (let i = 0; i < 8; i++) {
        assert.equal((await t.request('GET', '/healthz', { headers: ip })).status, 200);
        const ready = await t.request('GET', '/readyz', { headers: ip });
        assert.equal(ready.status, 200);
        assert.equal(ready.headers.get('ratelimit'), null, 'no budget is spent on probes');
      }
      const listing = '/v1/public/organizations/org_none/listings/listing_none';
      for (let i = 0; i < 3; i++) {
        const read = await t.request('GET', listing, { headers: ip });
        assert.equal(read.status, 404);
        assert.equal(read.headers.get('ratelimit-policy'), '"public";q=3;w=60');
      }
      const limited = await t.request('GET', listing, { headers: ip });
      assert.equal(limited.status, 429);
      assert.ok(Number(limited.headers.get('retry-after')) >= 1);
      assert.equal((await t.request('GET', listing, { headers: { 'x-forwarded-for': '203.0.113.11' } })).status, 404, 'another IP has its own budget');
    });

    it('limits CORS preflights and the sandbox provider per IP', async () => {
      const ip = { 'x-forwarded-for': '203.0.113.20', origin: 'https://jobs.example.com', 'access-control-request-method': 'POST' };
      const path = '/v1/opportunities/listings/listing_none/applications/profile';
      for (let i = 0; i < 3; i++) assert.equal((await t.request('OPTIONS', path, { headers: ip })).status, 204);
      const preflight = await t.request('OPTIONS', path, { headers: ip });
      assert.equal(preflight.status, 429);
      assert.ok(Number(preflight.headers.get('retry-after')) >= 1);

      const other = { 'x-forwarded-for': '203.0.113.21' };
      for (let i = 0; i < 3; i++) assert.notEqual((await t.request('GET', '/sandbox/profiles/usr_sbx7Ada2Lovelace', { headers: other })).status, 429);
      assert.equal((await t.request('GET', '/sandbox/profiles/usr_sbx7Ada2Lovelace', { headers: other })).status, 429);
    });
  });

  describe('failed authentications', () => {
    let t: TestHost;
    const guess = (prefix = 'a'.repeat(12)) => `hik_${prefix}_${'b'.repeat(43)}`;
    before(async () => {
      t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '100', RATE_LIMIT_CONNECT_PER_MINUTE: '3', RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '3' } });
    });
    after(() => t?.close());

    it('are checked before verification, per IP: past the budget even a correct key gets 429', async () => {
      const org = await t.createOrganization('Guarded');
      const ip = { 'x-forwarded-for': '198.51.100.1' };
      for (let i = 0; i < 3; i++) {
        const attempt = await t.request('GET', '/v1/organization', { auth: guess(), headers: ip });
        assert.equal(attempt.status, 401, attempt.text);
      }
      const limited = await t.request('GET', '/v1/organization', { auth: org.apiKey, headers: ip });
      assert.equal(limited.status, 429, 'the correct key is refused too: guessing is not confirmed');
      assert.equal(limited.body.error.code, 'rate_limited');
      assert.ok(Number(limited.headers.get('retry-after')) >= 1);
      assert.equal(
        (await t.request('GET', '/v1/organization', { auth: org.apiKey, headers: { 'x-forwarded-for': '198.51.100.2' } })).status,
        200,
        'another IP is not held back',
      );
    });

    it('are counted per key prefix too, whichever IPs the guesses come from', async () => {
      const target = await t.createOrganization('Targeted');
      const bystander = await t.createOrganization('Bystander');
      const prefix = target.apiKey.slice(4, 16);
      for (let i = 0; i < 3; i++) {
        const attempt = await t.request('GET', '/v1/organization', { auth: guess(prefix), headers: { 'x-forwarded-for': `198.51.100.${10 + i}` } });
        assert.equal(attempt.status, 401);
      }
      const fresh = { 'x-forwarded-for': '198.51.100.50' };
      assert.equal((await t.request('GET', '/v1/organization', { auth: target.apiKey, headers: fresh })).status, 429);
      assert.equal((await t.request('GET', '/v1/organization', { auth: bystander.apiKey, headers: fresh })).status, 200);
    });

    it('are counted on the job dashboard, the hook endpoint and /metrics', async () => {
      const basic = (password: string) => ({ authorization: `Basic ${Buffer.from(`ops:${password}`).toString('base64')}` });
      const checks: Array<[string, string, (credential: string) => Record<string, string>, unknown]> = [
        ['GET', '/operator/jobs', basic, undefined],
        ['POST', '/host/v1/hooks/interview.scheduled', (c) => ({ authorization: `Bearer ${c}` }), { organization_id: 'org_x', payload: {} }],
        ['GET', '/metrics', (c) => ({ authorization: `Bearer ${c}` }), undefined],
      ];
      for (const [i, [method, path, header, body]] of checks.entries()) {
        const ip = { 'x-forwarded-for': `198.51.100.${100 + i}` };
        for (let n = 0; n < 3; n++) {
          const attempt = await t.request(method, path, { headers: { ...ip, ...header(`wrong-operator-key-${'x'.repeat(20)}`) }, body });
          assert.equal(attempt.status, 401, `${path}: ${attempt.text}`);
        }
        const limited = await t.request(method, path, { headers: { ...ip, ...header(t.operatorKey) }, body });
        assert.equal(limited.status, 429, `${path} with the right key after 3 failures`);
      }
    });

    it('limits the connect popup per IP with its own budget, with a page the candidate can read', async () => {
      const query = new URLSearchParams({ organization_id: 'org_unknown', listing_id: 'listing_unknown', origin: 'https://jobs.example' });
      const ip = { 'x-forwarded-for': '198.51.100.200' };
      for (let i = 0; i < 3; i++) assert.equal((await t.request('GET', `/v1/connect/profile?${query}`, { headers: ip })).status, 400);
      const limited = await t.request('GET', `/v1/connect/profile?${query}`, { headers: ip });
      assert.equal(limited.status, 429);
      assert.match(limited.headers.get('content-type') ?? '', /text\/html/);
      assert.match(limited.text, /rate_limited/);
      assert.equal(limited.headers.get('ratelimit-policy'), '"connect";q=3;w=60');
      assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    });
  });

  describe('stores', () => {
    const budget: RateLimitBudget = { name: 'api', points: 6, windowSeconds: 1 };

    it('Redis: one atomic counter per key across connections, which expires with its window', async function () {
      requireRedis(this);
      const [one, two] = [createRedis(process.env.REDIS_URL!, 'client'), createRedis(process.env.REDIS_URL!, 'client')];
      try {
        const prefix = `hi-test-${randomBytes(6).toString('hex')}:ratelimit`;
        const [a, b] = [new RedisRateLimitStore(one, prefix), new RedisRateLimitStore(two, prefix)];
        await Promise.all([one.ping(), two.ping()]);
        const decisions = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).consume(budget, 'org:x')));
        assert.equal(decisions.filter((d) => d.allowed).length, 6, 'exactly the limit is allowed, whichever connection asks');
        assert.ok(decisions.every((d) => d.resetSeconds === 1));
        assert.ok((await one.pttl(`${prefix}:api:org:x`)) > 0, 'the counter has an expiry');
        assert.equal((await a.peek(budget, 'org:x')).remaining, 0, 'peeking reads without counting');
        await new Promise((r) => setTimeout(r, 1100));
        assert.equal((await a.consume(budget, 'org:x')).allowed, true, 'a new window starts after expiry');
        assert.equal((await b.consume(budget, 'org:y')).remaining, 5, 'keys are independent');
      } finally {
        one.disconnect();
        two.disconnect();
      }
    });

    it('an outage is logged once, fails open for requests, and keeps counting failed authentications in memory', async () => {
      const stalled = createRedis('redis://127.0.0.1:1', 'client');
      stalled.on('error', () => undefined);
      const lines: string[] = [];
      const logger = {
        error: (_o: object, m: string) => lines.push(`error ${m}`),
        info: (_o: object, m: string) => lines.push(`info ${m}`),
        warn: () => undefined,
        debug: () => undefined,
        child: () => logger,
      } as unknown as Logger;
      try {
        const store = new RedisRateLimitStore(stalled, 'hi-test:ratelimit', 200);
        const health = new StoreHealth(logger, store);
        const started = Date.now();
        await assert.rejects(store.consume(budget, 'org:x'));
        assert.ok(Date.now() - started < 2000, 'gives up quickly');

        const app = express();
        app.set('trust proxy', 'loopback');
        app.get('/read', rateLimit(store, { name: 'public', points: 1, windowSeconds: 60 }, health), (_req, res) => res.json({ ok: true }));
        const throttle = new AuthenticationThrottle(store, { name: 'auth_failures', points: 2, windowSeconds: 60 }, health);
        app.get('/private', authenticate(['organization'], [], throttle), (_req, res) => res.json({ ok: true }));
        app.use(errorHandler(logger));
        const server = app.listen(0, '127.0.0.1');
        await new Promise((r) => server.once('listening', r));
        const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        try {
          const reads = [];
          for (let i = 0; i < 4; i++) reads.push((await fetch(`${base}/read`)).status);
          assert.deepEqual(reads, [200, 200, 200, 200], 'reads fail open');
          const auths = [];
          for (let i = 0; i < 4; i++) auths.push((await fetch(`${base}/private`, { headers: { authorization: 'Bearer hik_aaaaaaaaaaaa_x' } })).status);
          assert.deepEqual(auths, [401, 401, 429, 429], 'failed authentications stay limited (in memory) during the outage');
          assert.deepEqual(
            lines.filter((l) => l.includes('rate-limit store')),
            ['error rate-limit store unavailable: limits fail open, failed authentications are counted in memory'],
            'logged once',
          );
        } finally {
          server.close();
        }
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
        RATE_LIMIT_PUBLIC_PER_MINUTE: '5',
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
      if (!process.env.DATABASE_URL) skipBecause(this, 'needs DATABASE_URL: two API processes share one database');
      // Readiness probes are never counted; the key has its own budget.
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) statuses.push((await request(urls[i % 2]!, 'GET', '/v1/organization', { auth: apiKey })).status);
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429], 'the sixth request is limited, whichever process serves it');
      const limited = await request(urls[1]!, 'GET', '/v1/organization', { auth: apiKey });
      assert.equal(limited.body.error.code, 'rate_limited');
      assert.ok(Number(limited.headers.get('retry-after')) >= 1);

      const publicStatuses: number[] = [];
      for (let i = 0; i < 6; i++) publicStatuses.push((await request(urls[i % 2]!, 'GET', '/v1/public/organizations/org_none/listings/listing_none')).status);
      assert.deepEqual(publicStatuses, [404, 404, 404, 404, 404, 429], 'the per-IP public budget is shared too');
    });
  });
});
