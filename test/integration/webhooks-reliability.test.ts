/**
 * Webhook deliveries survive faults: a Redis restart that loses every queued job (a
 * redis-server of the test's own, without persistence), and a worker SIGKILLed while its
 * request is at the receiver. Every event still arrives, verified by `standardwebhooks`,
 * under its one webhook-id.
 */
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { rememberSecret, rememberSecretsIn } from '../helpers/log-capture';
import { BIN, freePort, killAll, startProcess, waitForHttp } from '../helpers/processes';
import { waitFor } from '../helpers/profile-flow';
import { withCleanup } from '../helpers/deadline';
import { DedicatedRedis } from '../helpers/redis-server';
import { uniqueQueuePrefix, usingRedis } from '../helpers/redis';
import { request, startTestHost, type TestHost } from '../helpers/test-host';
import { FAST_WEBHOOKS, WebhookReceiver } from '../helpers/webhook-receiver';
import { skipBecause } from '../helpers/skip';

describe('webhooks: durable delivery under faults', function () {
  this.timeout(90_000);
  let receiver: WebhookReceiver;

  before(async function () {
    if (!usingRedis() || !process.env.DATABASE_URL) {
      skipBecause(this, 'needs DATABASE_URL and REDIS_URL, embedded mode');
    }
    receiver = await WebhookReceiver.start();
  });
  after(async () => {
    await killAll();
    await receiver?.stop();
  });

  it('a Redis restart loses nothing: queued and delayed deliveries are enqueued again', async () => {
    const redis = await DedicatedRedis.start();
    let t: TestHost | undefined;
    // Every wait and the cleanup are bounded (waitFor, TestHost.close), all told well within
    // the test's timeout: a failure names what it was waiting for, with what it last saw.
    await withCleanup(
      async () => {
        // A 2 s timeout on a starved machine (the receiver shares this process) would send again an
        // answer that was only late, which is at-least-once as designed, not what is tested here.
        t = await startTestHost({ env: { ...FAST_WEBHOOKS, REDIS_URL: redis.url, WEBHOOK_RETRY_WINDOW_SECONDS: '120', WEBHOOK_TIMEOUT_MS: '15000' } });
        const org = await t.createOrganization('Outage Org');
        const created = await t.request('POST', '/v1/webhook_endpoints', { auth: org.apiKey, body: { url: receiver.url } });
        assert.equal(created.status, 201, created.text);
        rememberSecret(created.body.secret);
        receiver.secrets = [created.body.secret];
        receiver.respond = () => 503;
        const events: string[] = [];
        const send = async () => {
          const res = await t!.request('POST', `/v1/webhook_endpoints/${created.body.id}/test`, { auth: org.apiKey });
          assert.equal(res.status, 202, res.text);
          events.push(res.body.id);
        };
        let seen: any[] = [];
        const log = async () => {
          seen = (await t!.request('GET', `/v1/webhook_endpoints/${created.body.id}/deliveries?limit=100`, { auth: org.apiKey })).body.data as any[];
          return seen;
        };
        const lastSeen = () =>
          `last seen: ${JSON.stringify(seen.map((d) => ({ event: d.event_id, status: d.status, attempts: d.attempts, error: d.last_error })))}`;
        for (let i = 0; i < 5; i++) await send();
        await waitFor(
          async () => ((await log()).length === 5 && seen.every((d) => d.attempts >= 1) ? true : undefined),
          () => `first attempts answered 503; ${lastSeen()}`,
        );

        await redis.stop();
        // Written while Redis is down: they wait in the outbox.
        for (let i = 0; i < 3; i++) await send();
        await new Promise((r) => setTimeout(r, 500));
        await redis.start();
        receiver.respond = () => 200;

        await waitFor(
          async () => ((await log()).length === 8 && seen.every((d) => d.status === 'succeeded') ? true : undefined),
          () => `every delivery after the restart; ${lastSeen()}`,
          30_000,
        );
        const delivered = receiver.delivered();
        for (const id of events) {
          const answers = receiver.received.filter((r) => r.id === id).map((r) => r.status);
          assert.equal(delivered.get(id)?.length, 1, `${id} delivered once (answers: ${answers.join(', ')})`);
        }
        assert.ok(receiver.received.filter((r) => events.includes(r.id)).every((r) => r.verifiedWith.length === 1));
      },
      async () => {
        try {
          await t?.close();
        } finally {
          await redis.stop();
        }
      },
    );
  });

  it('a worker SIGKILLed mid-delivery: another worker delivers the event, under the same webhook-id', async () => {
    let database: TestDatabase | undefined;
    try {
      database = await createTestDatabase();
      const port = await freePort();
      const baseUrl = `http://127.0.0.1:${port}`;
      const operatorKey = `op_${randomBytes(24).toString('hex')}`;
      const secretKey = randomBytes(32).toString('hex');
      rememberSecret(operatorKey);
      rememberSecret(secretKey);
      const env = {
        ...FAST_WEBHOOKS,
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: String(port),
        BASE_URL: baseUrl,
        DATABASE_URL: database.url!,
        REDIS_URL: process.env.REDIS_URL!,
        QUEUE_PREFIX: uniqueQueuePrefix(),
        SECRET_KEY: secretKey,
        OPERATOR_API_KEY: operatorKey,
        WORKER_HTTP_PORT: '0',
        JOB_LOCK_DURATION_MS: '2000',
        JOB_STALLED_INTERVAL_MS: '1000',
        // The held request must outlast the worker, not time out first.
        WEBHOOK_TIMEOUT_MS: '30000',
        WEBHOOK_RETRY_WINDOW_SECONDS: '120',
      };
      const api = startProcess('api', ['node', BIN, 'serve'], env);
      await waitForHttp(`${baseUrl}/readyz`, api);
      const org = await request(baseUrl, 'POST', '/v1/organizations', { auth: operatorKey, body: { name: 'Crash Org' } });
      assert.equal(org.status, 201, org.text);
      rememberSecretsIn(org.body);
      const apiKey: string = org.body.api_key;
      const endpoint = await request(baseUrl, 'POST', '/v1/webhook_endpoints', { auth: apiKey, body: { url: receiver.url } });
      assert.equal(endpoint.status, 201, endpoint.text);
      rememberSecret(endpoint.body.secret);
      receiver.secrets = [endpoint.body.secret];
      receiver.respond = ({ attempt }) => (attempt === 1 ? 'hold' : 200);
      const event = await request(baseUrl, 'POST', `/v1/webhook_endpoints/${endpoint.body.id}/test`, { auth: apiKey });
      assert.equal(event.status, 202, event.text);

      const first = startProcess('worker-1', ['node', BIN, 'worker'], env);
      await waitFor(async () => (receiver.received.some((r) => r.id === event.body.id) ? true : undefined), 'the delivery held at the receiver', 30_000);
      const killed = await first.stop('SIGKILL');
      assert.equal(killed.signal, 'SIGKILL');
      receiver.release(500);

      const second = startProcess('worker-2', ['node', BIN, 'worker'], env);
      await waitFor(async () => receiver.delivered().get(event.body.id), 'the delivery through worker 2', 40_000);
      const deliveries = await request(baseUrl, 'GET', `/v1/webhook_endpoints/${endpoint.body.id}/deliveries`, { auth: apiKey });
      await waitFor(async () => {
        const res = await request(baseUrl, 'GET', `/v1/webhook_endpoints/${endpoint.body.id}/deliveries`, { auth: apiKey });
        return res.body.data[0]?.status === 'succeeded' ? true : undefined;
      }, 'the delivery recorded as succeeded');
      assert.equal(deliveries.status, 200);
      const all = receiver.received.filter((r) => r.id === event.body.id);
      assert.ok(all.length >= 2, 'sent again after the crash');
      assert.ok(
        all.every((r) => r.payload.id === event.body.id && r.verifiedWith.length === 1),
        'same webhook-id, valid signature each time',
      );
      assert.equal(receiver.delivered().get(event.body.id)!.length, 1, 'delivered (2xx) once');
      await second.stop('SIGTERM');
      await api.stop('SIGTERM');
    } finally {
      await killAll();
      await database?.drop();
    }
  });
});
