/**
 * Webhook deliveries per second to a local receiver, beside a bare `fetch` POST loop to
 * the same receiver from the same process.
 *
 * A standalone host runs in this process on a fresh PostgreSQL database and a queue prefix
 * of its own on Redis, with its workers stopped while N events are recorded for one
 * endpoint (deliveries wait as BullMQ jobs, their queue paused). Then the workers start
 * (their connections and Lua scripts loaded: a worker process does that once in its life,
 * not per delivery), the queue is resumed and the clock runs until the receiver has
 * answered all N deliveries: each one is a job that
 * loads its delivery, event, endpoint and secret, signs with `standardwebhooks`, POSTs,
 * and records the outcome. The baseline POSTs the same bodies with `fetch`, with the same
 * concurrency as the queue (20), to the same receiver.
 *
 * Alone: `node dist/bench/webhooks.bench.js`; in `npm run bench` as the `webhooks` part.
 */
import 'reflect-metadata';
import { createServer } from 'node:http';
import { Queue } from 'bullmq';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/kernel/config';
import { eventMessage } from '../src/kernel/outbox';
import { createLogger } from '../src/platform/logging/pino-logger';
import { operatorServices } from '../src/standalone/cli/operator-services';
import { createStandaloneHost } from '../src/standalone/host/standalone-host';
import { createDatabase } from '../src/platform/database/database';
import { writeOutbox } from '../src/features/events/storage/outbox-writer';
import { createBenchDatabase } from './lib/database';
import { profileWindow, startCpuMeter } from './lib/cpu-meter';

export interface WebhookBenchResult {
  deliveries: number;
  deliveriesPerSecond: number;
  fetchPerSecond: number;
  ratio: number;
  concurrency: number;
  /** SQL statements the product ran per delivery while delivering (claim, endpoint, outcome, their batches). */
  statementsPerDelivery: number;
  /** CPU per delivery (ms): this process (host, worker, receiver), the database's PostgreSQL backends, the Redis server (shared). */
  cpuPerDelivery: { processMs: number; postgresMs: number; redisMs: number | undefined };
  /** CPU per bare POST (ms): this process (fetch loop and receiver). */
  cpuPerPost: { processMs: number };
  /** The product's CPU per delivery (this process + PostgreSQL backends; Redis left out: shared) ÷ the baseline's per POST. */
  cpuRatio: number;
  /** The same, this process only (what the Node side costs, host + worker + receiver, vs fetch loop + receiver). */
  processCpuRatio: number;
  /** Redis commands this process sent per delivery, and the most frequent ones. */
  redisCommandsPerDelivery: number;
  redisCommands: Record<string, number>;
  /**
   * Share of one core this process was busy while measuring, product and baseline: near 1, the
   * single Node thread is the bottleneck; well below, the rate waits on round trips (latency-bound).
   */
  processBusy: { product: number; baseline: number };
  /** Row updates of hi_webhook_deliveries while delivering, and how many were heap-only (no index writes). */
  deliveryRowUpdates: { updates: number; hot: number };
}

const CONCURRENCY = 20;
/** Time given to the workers to connect and load their scripts before the clock starts. */
const WORKER_BOOT_MS = 2_000;

export async function benchWebhooks(options: { databaseUrl: string; redisUrl: string; deliveries?: number }): Promise<WebhookBenchResult> {
  const total = options.deliveries ?? 2000;
  let received = 0;
  let onReceived: (() => void) | undefined;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200).end();
      received += 1;
      onReceived?.();
    });
  });
  receiver.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const database = await createBenchDatabase(options.databaseUrl);
  const db = createDatabase({ databaseUrl: database.url, poolMax: 20 });
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    REDIS_URL: options.redisUrl,
    QUEUE_PREFIX: `{hi-bench-webhooks-${Date.now()}}`,
    SECRET_KEY: 'b'.repeat(64),
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOWED_INTERNAL_HOSTS: '127.0.0.1',
    RATE_LIMIT_PER_MINUTE: '0',
  });
  const host = await createStandaloneHost({ config, logger: createLogger({ level: 'warn' }), db, runWorkers: false });
  try {
    const { organization, key } = await operatorServices(db, config).organizations.create('Bench Org');
    const api = host.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => api.once('listening', resolve));
    const created = await fetch(`http://127.0.0.1:${(api.address() as AddressInfo).port}/v1/webhook_endpoints`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url }),
    });
    api.closeAllConnections();
    api.close();
    if (created.status !== 201) throw new Error(`creating the endpoint: ${created.status} ${await created.text()}`);
    // Events as the product writes them: in a transaction, through the outbox (which fans them out).
    const body = { application_id: 'app_bench', answers: { years_experience: 7 }, imported_skills: ['TypeScript', 'PostgreSQL'] };
    for (let i = 0; i < total; i += 100) {
      const batch = Array.from({ length: Math.min(100, total - i) }, (_, j) =>
        eventMessage({ organizationId: organization.id, type: 'application.submitted', data: body, dedupeKey: `bench:${i + j}` }),
      );
      await db.transaction((trx) => writeOutbox(trx, batch));
    }
    // Every delivery job is in Redis before the clock starts.
    for (;;) {
      const pending = Number((await db('hi_outbox').whereNull('dispatched_at').count({ n: '*' }).first())!.n);
      if (pending === 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const done = new Promise<void>((resolve) => {
      onReceived = () => received >= total && resolve();
    });
    // Statements per delivery (load-independent, unlike the rate): counted from knex's query events.
    const statements = new Map<string, number>();
    const countStatement = (query: { sql: string }) => statements.set(query.sql, (statements.get(query.sql) ?? 0) + 1);
    const queue = new Queue('webhook-delivery', { connection: { url: options.redisUrl }, prefix: config.queuePrefix });
    await queue.pause();
    await host.plugin.startWorkers({ concurrency: CONCURRENCY });
    await new Promise((resolve) => setTimeout(resolve, WORKER_BOOT_MS));
    const updatesBefore = await deliveryRowUpdates(db);
    db.on('query', countStatement);
    const meter = await startCpuMeter(db);
    const stopProfile = await profileWindow('webhooks-product');
    const started = process.hrtime.bigint();
    await queue.resume();
    await done;
    const webhookSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    db.off('query', countStatement);
    const product = await meter.stop();
    await stopProfile();
    // The statistics reach pg_stat_user_tables when a backend reports them (at most a second later).
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const updatesAfter = await deliveryRowUpdates(db);
    await queue.close();
    onReceived = undefined;
    if (process.env.BENCH_SQL) {
      for (const [sql, n] of [...statements].sort((a, b) => b[1] - a[1])) console.error(`${(n / total).toFixed(2)}  ${sql.replace(/\s+/g, ' ').slice(0, 140)}`);
    }

    // Baseline: the same bodies, bare fetch, same concurrency, same receiver.
    const payload = JSON.stringify({ id: 'evt_bench', type: 'application.submitted', timestamp: new Date().toISOString(), sequence: 1, data: body });
    let next = 0;
    const baselineMeter = await startCpuMeter(undefined);
    const stopBaselineProfile = await profileWindow('webhooks-baseline');
    const baselineStart = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < total) {
          next += 1;
          const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload });
          await response.arrayBuffer();
        }
      }),
    );
    const fetchSeconds = Number(process.hrtime.bigint() - baselineStart) / 1e9;
    const baseline = await baselineMeter.stop();
    await stopBaselineProfile();
    const perPost = baseline.processMs / total;
    const cpuPerDelivery = {
      processMs: product.processMs / total,
      postgresMs: product.postgresMs / total,
      redisMs: product.redisMs === undefined ? undefined : product.redisMs / total,
    };
    const redisTotal = [...product.redisCommands.values()].reduce((a, b) => a + b, 0);
    const deliveriesPerSecond = total / webhookSeconds;
    const fetchPerSecond = total / fetchSeconds;
    return {
      deliveries: total,
      deliveriesPerSecond,
      fetchPerSecond,
      ratio: deliveriesPerSecond / fetchPerSecond,
      concurrency: CONCURRENCY,
      statementsPerDelivery: [...statements.values()].reduce((a, b) => a + b, 0) / total,
      cpuPerDelivery,
      cpuPerPost: { processMs: perPost },
      cpuRatio: perPost / (cpuPerDelivery.processMs + cpuPerDelivery.postgresMs),
      processCpuRatio: perPost / cpuPerDelivery.processMs,
      redisCommandsPerDelivery: redisTotal / total,
      processBusy: { product: product.processMs / (webhookSeconds * 1000), baseline: baseline.processMs / (fetchSeconds * 1000) },
      deliveryRowUpdates: { updates: updatesAfter.updates - updatesBefore.updates, hot: updatesAfter.hot - updatesBefore.hot },
      redisCommands: Object.fromEntries([...product.redisCommands].sort((a, b) => b[1] - a[1]).map(([name, n]) => [name, Number((n / total).toFixed(3))])),
    };
  } finally {
    await host.close();
    await db.destroy();
    await database.drop();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  }
}

async function deliveryRowUpdates(db: ReturnType<typeof createDatabase>): Promise<{ updates: number; hot: number }> {
  const { rows } = (await db.raw(`select n_tup_upd as updates, n_tup_hot_upd as hot from pg_stat_user_tables where relname = 'hi_webhook_deliveries'`)) as {
    rows: { updates: string; hot: string }[];
  };
  return { updates: Number(rows[0]?.updates ?? 0), hot: Number(rows[0]?.hot ?? 0) };
}

if (require.main === module) {
  benchWebhooks({
    databaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  }).then(
    (result) => {
      console.log(JSON.stringify(result, null, 2));
      process.exit(0);
    },
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
