/**
 * Graceful shutdown, with real processes (the commands the containers run) and with the
 * queue adapters: on SIGTERM/SIGINT stop taking work, finish what is in flight, close
 * everything, exit 0.
 */
import { strict as assert } from 'node:assert';
import http from 'node:http';
import type { JobProcessor, QueueDefinition } from '../../src/kernel/job-queue';
import { BullmqJobQueue } from '../../src/platform/queue/bullmq-queue';
import { InlineJobQueue } from '../../src/platform/queue/inline-queue';
import { createRedis } from '../../src/platform/queue/redis';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { testLogger } from '../helpers/log-capture';
import {
  containerArgv,
  freePort,
  killAll,
  readCompose,
  readEnvExample,
  runHealthcheck,
  runToCompletion,
  serviceEnvironment,
  startProcess,
  testSecrets,
  waitForHttp,
} from '../helpers/processes';
import { requireRedis, uniqueQueuePrefix, usingRedis } from '../helpers/redis';
import { DedicatedRedis } from '../helpers/redis-server';
import { within } from '../helpers/deadline';
import { skipBecause } from '../helpers/skip';
import { testDir } from '../helpers/temp-dirs';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Environment of a process the way compose gives it, on this test's services. */
async function processEnv(database: TestDatabase | undefined, service: 'api' | 'worker') {
  const secrets = testSecrets();
  if (!database?.url) {
    // Embedded mode: the same command on PGlite and in-process jobs.
    return {
      env: {
        NODE_ENV: 'development',
        DATA_DIR: testDir('shutdown'),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        OPERATOR_API_KEY: secrets.OPERATOR_API_KEY,
      } as Record<string, string>,
      secrets,
    };
  }
  const env = {
    ...serviceEnvironment(readCompose().services[service]!, { ...readEnvExample(), ...secrets }),
    DATABASE_URL: database.url,
    REDIS_URL: process.env.REDIS_URL!,
    QUEUE_PREFIX: uniqueQueuePrefix(),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
  };
  const migrate = runToCompletion(containerArgv('migrate'), env);
  assert.equal(migrate.code, 0, migrate.stderr);
  return { env, secrets };
}

describe('graceful shutdown', function () {
  this.timeout(90_000);
  let database: TestDatabase | undefined;
  before(async () => {
    if (process.env.DATABASE_URL) database = await createTestDatabase();
  });
  after(async () => {
    await killAll();
    await database?.drop();
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`API (${usingRedis() ? 'PostgreSQL + Redis' : 'embedded'}): on ${signal} stops accepting, answers the request in flight, exits 0`, async () => {
      const { env, secrets } = await processEnv(database, 'api');
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const api = startProcess('api', containerArgv('api'), { ...env, PORT: String(port), BASE_URL: base });
      await waitForHttp(`${base}/healthz`, api);

      // A keep-alive connection left idle must not hold the exit up.
      const agent = new http.Agent({ keepAlive: true });
      await new Promise<void>((resolve, reject) => http.get(`${base}/healthz`, { agent }, (res) => res.resume().on('end', resolve)).on('error', reject));

      // A request in flight: headers sent, half the body; the rest after the signal.
      const body = JSON.stringify({ name: 'Created during shutdown' });
      const inFlight = new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(`${base}/v1/organizations`, {
          method: 'POST',
          headers: { authorization: `Bearer ${secrets.OPERATOR_API_KEY}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        });
        req.on('response', (res) => {
          let text = '';
          res.on('data', (c) => (text += c)).on('end', () => resolve({ status: res.statusCode!, body: text }));
        });
        req.on('error', reject);
        req.write(body.slice(0, 10));
        setTimeout(() => {
          api.child.kill(signal);
          setTimeout(() => req.end(body.slice(10)), 700);
        }, 300);
      });
      await sleep(650); // the signal has arrived; the request is still being sent
      // A new connection is refused (a connection already open is still answered, with Connection: close).
      const fresh = new Promise((resolve, reject) => http.get(`${base}/healthz`, { agent: false }, (res) => resolve(res.resume())).on('error', reject));
      await assert.rejects(fresh, 'no new connections once shutting down');
      const answered = await inFlight;
      assert.equal(answered.status, 201, answered.body);
      assert.match(JSON.parse(answered.body).organization_id ?? JSON.parse(answered.body).id ?? '', /^org_/);
      const status = await api.exited;
      assert.deepEqual(status, { code: 0, signal: null }, api.output().slice(-2000));
      await api.waitForLog((l) => l.msg === 'shut down cleanly', 1000);
      agent.destroy();
    });
  }

  it('worker: health and metrics on WORKER_HTTP_PORT, healthcheck as compose runs it, exits 0 on SIGTERM', async function () {
    requireRedis(this);
    if (!database) skipBecause(this, 'needs DATABASE_URL: the worker is a separate process');
    const { env, secrets } = await processEnv(database, 'worker');
    const port = await freePort();
    const worker = startProcess('worker', containerArgv('worker'), { ...env, WORKER_HTTP_PORT: String(port), WORKER_CONCURRENCY: '3' });
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, worker);
    const started = await worker.waitForLog((l) => l.msg === 'worker started');
    assert.ok(
      (started.queues as Array<{ concurrency: number }>).every((q) => q.concurrency === 3),
      'WORKER_CONCURRENCY overrides every queue',
    );
    assert.equal(runHealthcheck(readCompose().services.worker!.healthcheck!.test!, { WORKER_HTTP_PORT: String(port) }), true);
    const metrics = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${secrets.OPERATOR_API_KEY}` } });
    assert.equal(metrics.status, 200);
    assert.match(await metrics.text(), /hiring_integrations_jobs_processed_total/);
    assert.equal((await fetch(`http://127.0.0.1:${port}/metrics`)).status, 401);
    assert.equal((await fetch(`http://127.0.0.1:${port}/v1/organization`)).status, 404, 'the worker serves no API');
    assert.deepEqual(await worker.stop('SIGTERM'), { code: 0, signal: null });
  });

  describe('queue adapters finish the jobs in flight', () => {
    const definitions = new Map<string, QueueDefinition>([['slow', { name: 'slow', concurrency: 4, attempts: 3, backoffMs: 50 }]]);

    it('in-process: close() waits for running jobs and starts no more', async () => {
      const finished: string[] = [];
      const queue = new InlineJobQueue(definitions, testLogger());
      queue.startWorkers([{ queue: 'slow', process: async (job) => void (await sleep(300), finished.push(job.id)) }]);
      for (let i = 0; i < 4; i++) await queue.add('slow', 'slow', {}, { jobId: `a${i}` });
      await sleep(50);
      await queue.close();
      assert.deepEqual(finished.sort(), ['a0', 'a1', 'a2', 'a3']);
    });

    it('BullMQ: a worker closing mid-jobs finishes them; the rest run elsewhere, each exactly once', async function () {
      requireRedis(this);
      const prefix = uniqueQueuePrefix();
      const runs = new Map<string, number>();
      const processor = (who: string, active: Set<string>): JobProcessor => ({
        queue: 'slow',
        async process(job) {
          active.add(job.id);
          await sleep(200);
          runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
          active.delete(job.id);
          return who;
        },
      });
      const make = () => {
        const connection = createRedis(process.env.REDIS_URL!, 'client');
        const queue = new BullmqJobQueue({
          connection,
          workerConnection: () => createRedis(process.env.REDIS_URL!, 'worker'),
          prefix,
          definitions,
          logger: testLogger(),
        });
        return { queue, connection };
      };
      const first = make();
      const second = make();
      try {
        const activeFirst = new Set<string>();
        first.queue.startWorkers([processor('first', activeFirst)], 4);
        for (let i = 0; i < 24; i++) await first.queue.add('slow', 'slow', { i }, { jobId: `job-${i}` });
        while (activeFirst.size === 0) await sleep(10);
        const closing = first.queue.close();
        assert.ok(activeFirst.size > 0, 'jobs were in flight when the worker began to close');
        await closing;
        assert.equal(activeFirst.size, 0, 'close() returned only after the jobs in flight finished');
        second.queue.startWorkers([processor('second', new Set())], 4);
        const deadline = Date.now() + 20_000;
        while (runs.size < 24 && Date.now() < deadline) await sleep(50);
        assert.equal(runs.size, 24, 'no job lost');
        assert.ok(
          [...runs.values()].every((n) => n === 1),
          'no job ran twice',
        );
      } finally {
        await second.queue.close();
        await first.connection.quit();
        await second.connection.quit();
      }
    });

    // ioredis never ends a connection that is disconnected while it waits to reconnect, which
    // is how BullMQ's graceful close interrupts a worker's blocking read: close() used to hang.
    for (const when of ['Redis is away', 'Redis has just restarted'] as const) {
      it(`BullMQ: close() returns while ${when}, after the jobs in flight finish`, async function () {
        requireRedis(this);
        this.timeout(30_000);
        const redis = await DedicatedRedis.start();
        const connection = createRedis(redis.url, 'client', testLogger());
        const queue = new BullmqJobQueue({
          connection,
          workerConnection: () => createRedis(redis.url, 'worker', testLogger()),
          prefix: uniqueQueuePrefix(),
          definitions,
          logger: testLogger(),
        });
        try {
          let release!: () => void;
          const released = new Promise<void>((resolve) => (release = resolve));
          const finished: string[] = [];
          let started = false;
          queue.startWorkers([
            {
              queue: 'slow',
              async process(job) {
                started = true;
                await released;
                finished.push(job.id);
              },
            },
          ]);
          await queue.add('slow', 'slow', {}, { jobId: 'in-flight' });
          const deadline = Date.now() + 10_000;
          while (!started && Date.now() < deadline) await sleep(20);
          assert.ok(started, 'the job started');
          await redis.stop();
          // Long enough for ioredis to be waiting between reconnection attempts.
          await sleep(1_500);
          if (when === 'Redis has just restarted') await redis.start();
          // Past the moment close() gives up waiting for Redis: the job must still be waited for.
          setTimeout(release, 4_000);
          await within(queue.close(), 10_000, `queue.close() while ${when}`);
          assert.deepEqual(finished, ['in-flight'], 'close() returned after the job in flight finished');
        } finally {
          connection.disconnect();
          await redis.stop();
        }
      });
    }
  });
});
