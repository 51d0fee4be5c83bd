/**
 * Webhook deliveries per second through the product as it is deployed, beside a bare
 * `fetch` POST loop to the same receiver; and the CPU time each side spends per delivery,
 * which the other engineers' load on a shared machine moves far less than wall-clock rates.
 *
 * What is compared (BENCHMARKS.md, section 6):
 * - The receiver is a bare `node:http` server in a process of its own
 *   (bench/servers/webhook-receiver.ts: 200, empty body, keep-alive), the same for both
 *   sides, counted on neither.
 * - The product: `hiring-integrations serve --no-worker` (the API, which also runs the
 *   outbox relay) and `hiring-integrations worker` (WORKER_CONCURRENCY 20) as their own
 *   processes on a fresh database and queue prefix, NODE_ENV=production, log level info as
 *   shipped. One organization has one endpoint (created through the API) for the
 *   receiver. Events are written as the product writes them (in a transaction, through the
 *   outbox, as the host path does); the API's relay fans them out to deliveries and their
 *   BullMQ jobs. A warm-up of WARMUP deliveries runs first (JIT, pools, keep-alive
 *   connections); then the delivery queue is paused, N events are written and relayed, and
 *   the clock runs from resuming the queue until the receiver has answered the Nth
 *   delivery: each one is a job in the worker that claims its delivery, signs with
 *   `standardwebhooks`, POSTs, and records the outcome.
 * - The baseline: bench/servers/fetch-loop.ts, bare `fetch` POSTs of a body of the same
 *   shape, 20 at a time, in its own process (fetch's helper threads included in its CPU),
 *   with the same warm-up.
 * - CPU per delivery: the API's and the worker's (from /proc, over the timed window), the
 *   PostgreSQL backends serving the product's database (from /proc), the Redis server's
 *   (its INFO: shared with anything else using that Redis, context only), against the
 *   baseline process's own. The receiver's CPU per request is reported for both sides.
 * - Statements: every query the product's two processes sent during the window, counted by
 *   bench/lib/count-statements.ts (preloaded, `BEGIN`/`COMMIT` included); BENCH_SQL=1 prints them.
 *
 * Alone: `node dist/bench/webhooks.bench.js`; in `npm run bench` as the `webhooks` part.
 */
import 'reflect-metadata';
import path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { eventMessage } from '../src/kernel/outbox';
import { operatorServices } from '../src/standalone/cli/operator-services';
import { writeOutbox } from '../src/features/events/storage/outbox-writer';
import { WEBHOOK_DELIVERY_QUEUE } from '../src/features/webhooks/domain/webhook-delivery';
import { request } from '../test/helpers/test-host';
import { backendsCpu, cpuMs, nextMessage, reached, redisCpuMs, startNode, statementsOf, waitForMessage, type BenchProcess } from './lib/spawn';
import { Product } from './product';

export interface WebhookBenchResult {
  deliveries: number;
  deliveriesPerSecond: number;
  fetchPerSecond: number;
  ratio: number;
  concurrency: number;
  /** SQL statements the product's two processes ran per delivery while delivering. */
  statementsPerDelivery: number;
  /** CPU ms per delivery: the product's API and worker processes, its PostgreSQL backends, and the baseline process per POST. */
  cpu: {
    apiMs: number;
    workerMs: number;
    productMs: number;
    postgresMs: number | undefined;
    redisMs: number | undefined;
    baselineMs: number;
    /** The receiver's CPU per request, while the product delivered and while the baseline posted. */
    receiverMs: { product: number | undefined; baseline: number | undefined };
    /** Baseline CPU per POST ÷ the product's per delivery (API + worker + PostgreSQL backends). */
    ratio: number;
    /** The same, Node processes only (API + worker). */
    processRatio: number;
  };
  /** Share of one core each process was busy during its timed window (the worker's near 1: its one thread is the bottleneck). */
  busy: { api: number; worker: number; baseline: number };
  /** Keep-alive connections the receiver saw opened during each side's window. */
  connections: { product: number; baseline: number };
  /** Row updates of hi_webhook_deliveries while delivering, and how many were heap-only (no index writes). */
  deliveryRowUpdates: { updates: number; hot: number };
}

const CONCURRENCY = 20;
const COUNT_STATEMENTS = path.join(__dirname, 'lib/count-statements.js');
const EVENT_DATA = { application_id: 'app_bench', answers: { years_experience: 7 }, imported_skills: ['TypeScript', 'PostgreSQL'] };

type Reached = { connections: number; cpuMs: number };

async function deliveryRowUpdates(product: Product): Promise<{ updates: number; hot: number }> {
  const { rows } = (await product.db.raw(
    `select n_tup_upd as updates, n_tup_hot_upd as hot from pg_stat_user_tables where relname = 'hi_webhook_deliveries'`,
  )) as {
    rows: { updates: string; hot: string }[];
  };
  return { updates: Number(rows[0]?.updates ?? 0), hot: Number(rows[0]?.hot ?? 0) };
}

export async function benchWebhooks(options: { databaseUrl: string; redisUrl: string; deliveries?: number }): Promise<WebhookBenchResult> {
  const total = options.deliveries ?? 2000;
  const warmup = Math.min(200, Math.ceil(total / 10));
  const receiver = startNode('webhook-receiver', path.join(__dirname, 'servers/webhook-receiver.js'), [], {});
  const { port } = (await waitForMessage(receiver)) as { port: number };
  const url = `http://127.0.0.1:${port}/hook`;
  const product = await Product.create(options.databaseUrl, options.redisUrl, 'webhooks-');
  const redis = new Redis(options.redisUrl);
  let queue: Queue | undefined;
  let baseline: BenchProcess | undefined;
  try {
    Object.assign(product.env, {
      // The receiver is plain HTTP on loopback: production refuses both unless the operator lists the host.
      WEBHOOK_ALLOWED_INTERNAL_HOSTS: '127.0.0.1',
      WEBHOOK_HTTP_ALLOWED_HOSTS: '127.0.0.1',
      WORKER_CONCURRENCY: String(CONCURRENCY),
    });
    const preload = ['--require', COUNT_STATEMENTS];
    await product.startApi(preload);
    await product.startWorker({}, preload);
    const { organization, key } = await operatorServices(product.db, product.config).organizations.create('Bench Org');
    const created = await request(product.baseUrl, 'POST', '/v1/webhook_endpoints', { auth: key.apiKey, body: { url } });
    if (created.status !== 201) throw new Error(`creating the endpoint: ${created.status} ${created.text}`);

    // Events as the product writes them: in a transaction, through the outbox (the API's relay fans them out).
    let written = 0;
    const writeEvents = async (n: number) => {
      for (const end = written + n; written < end;) {
        const batch = Array.from({ length: Math.min(100, end - written) }, () =>
          eventMessage({ organizationId: organization.id, type: 'application.submitted', data: EVENT_DATA, dedupeKey: `bench:${written++}` }),
        );
        await product.db.transaction((trx) => writeOutbox(trx, batch));
      }
    };
    // Warm-up (JIT, caches, pooled and keep-alive connections), then the measured window.
    const warmed = reached<Reached>(receiver, warmup);
    await writeEvents(warmup);
    const atWarmup = await warmed;
    queue = new Queue(WEBHOOK_DELIVERY_QUEUE, { connection: { url: options.redisUrl }, prefix: product.queuePrefix });
    await queue.pause();
    await writeEvents(total);
    // Every delivery job is in Redis (relayed, its queue paused) before the clock starts.
    const deadline = Date.now() + 120_000;
    for (;;) {
      const pending = Number((await product.db('hi_outbox').whereNull('dispatched_at').count({ n: '*' }).first())!.n);
      const waiting = await queue.count();
      if (pending === 0 && waiting >= total) break;
      if (Date.now() > deadline) throw new Error(`the relay left ${pending} outbox rows, ${waiting} jobs waiting`);
      await new Promise((r) => setTimeout(r, 50));
    }
    await Promise.all([statementsOf(product.api!), statementsOf(product.worker!)]);
    const api = product.api!.child.pid;
    const worker = product.worker!.child.pid;
    const updatesBefore = await deliveryRowUpdates(product);
    const done = reached<Reached>(receiver, warmup + total);
    const before = { api: cpuMs(api), worker: cpuMs(worker), pg: await backendsCpu(product.db), redis: await redisCpuMs(redis) };
    const started = process.hrtime.bigint();
    await queue.resume();
    const productReceived = await done;
    const productSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    const after = { api: cpuMs(api), worker: cpuMs(worker), pg: await backendsCpu(product.db), redis: await redisCpuMs(redis) };
    const [apiCounts, workerCounts] = await Promise.all([statementsOf(product.api!), statementsOf(product.worker!)]);
    let statementCount = 0;
    const statements = new Map<string, number>();
    for (const [side, counts] of [
      ['api', apiCounts],
      ['worker', workerCounts],
    ] as const)
      for (const [sql, n] of Object.entries(counts.statements)) {
        statementCount += n;
        const key = `${side.padEnd(6)} ${sql.replace(/\s+/g, ' ').slice(0, 140)}`;
        statements.set(key, (statements.get(key) ?? 0) + n);
      }
    if (process.env.BENCH_SQL) for (const [sql, n] of [...statements].sort((a, b) => b[1] - a[1])) console.error(`${(n / total).toFixed(2)}  ${sql}`);
    let postgres: number | undefined;
    if (before.pg.size + after.pg.size > 0) {
      postgres = 0;
      for (const [pid, ms] of after.pg) postgres += ms - (before.pg.get(pid) ?? 0);
    }
    // The statistics reach pg_stat_user_tables when a backend reports them (at most a second later).
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const updatesAfter = await deliveryRowUpdates(product);

    // Baseline: bare fetch in its own process, the same warm-up, concurrency, receiver and body shape.
    const body = JSON.stringify({ id: 'evt_bench', type: 'application.submitted', timestamp: new Date().toISOString(), sequence: 1, data: EVENT_DATA });
    const loop = (n: number) => {
      baseline = startNode('fetch-loop', path.join(__dirname, 'servers/fetch-loop.js'), [], {
        URL: url,
        TOTAL: String(n),
        CONCURRENCY: String(CONCURRENCY),
        BODY: body,
      });
      return baseline;
    };
    const sent = warmup + total;
    const warm = loop(warmup);
    await waitForMessage(warm);
    warm.child.send({ go: true });
    await nextMessage(warm, (m) => m?.seconds as number | undefined);
    await warm.stop();
    const measured = loop(total);
    await waitForMessage(measured);
    const baselineWarmed = await reached<Reached>(receiver, sent + warmup);
    measured.child.send({ go: true });
    const bare = await nextMessage(measured, (m) => (typeof m?.seconds === 'number' ? (m as { seconds: number; cpuMs: number }) : undefined));
    const baselineReceived = await reached<Reached>(receiver, sent + warmup + total);
    await measured.stop();

    const perDelivery = (a: number | undefined, b: number | undefined) => (a !== undefined && b !== undefined ? (b - a) / total : undefined);
    const apiMs = perDelivery(before.api, after.api) ?? NaN;
    const workerMs = perDelivery(before.worker, after.worker) ?? NaN;
    const postgresMs = postgres === undefined ? undefined : postgres / total;
    const baselineMs = bare.cpuMs / total;
    const deliveriesPerSecond = total / productSeconds;
    const fetchPerSecond = total / bare.seconds;
    return {
      deliveries: total,
      deliveriesPerSecond,
      fetchPerSecond,
      ratio: deliveriesPerSecond / fetchPerSecond,
      concurrency: CONCURRENCY,
      statementsPerDelivery: statementCount / total,
      cpu: {
        apiMs,
        workerMs,
        productMs: apiMs + workerMs,
        postgresMs,
        redisMs: perDelivery(before.redis, after.redis),
        baselineMs,
        receiverMs: { product: perDelivery(atWarmup.cpuMs, productReceived.cpuMs), baseline: perDelivery(baselineWarmed.cpuMs, baselineReceived.cpuMs) },
        ratio: baselineMs / (apiMs + workerMs + (postgresMs ?? 0)),
        processRatio: baselineMs / (apiMs + workerMs),
      },
      busy: {
        api: (apiMs * total) / (productSeconds * 1000),
        worker: (workerMs * total) / (productSeconds * 1000),
        baseline: bare.cpuMs / (bare.seconds * 1000),
      },
      connections: {
        product: productReceived.connections - atWarmup.connections,
        baseline: baselineReceived.connections - baselineWarmed.connections,
      },
      deliveryRowUpdates: { updates: updatesAfter.updates - updatesBefore.updates, hot: updatesAfter.hot - updatesBefore.hot },
    };
  } finally {
    await baseline?.stop();
    await queue?.close();
    redis.disconnect();
    await product.close();
    await receiver.stop();
  }
}

if (require.main === module) {
  benchWebhooks({
    databaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    deliveries: Number(process.env.BENCH_WEBHOOKS ?? 2000),
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
