/**
 * Reminder emails per second through the product as it is deployed, beside a bare
 * nodemailer loop to the same SMTP server; and the CPU time each side spends per message,
 * which the other engineers' load on a shared machine moves far less than wall-clock rates.
 *
 * What is compared (BENCHMARKS.md, section 7):
 * - The SMTP server is `smtp-server` in a process of its own (bench/servers/smtp-sink.ts:
 *   plain SMTP on 127.0.0.1, no AUTH), the same for both sides, counted on neither.
 * - The product: `hiring-integrations serve --no-worker` (the API) and `hiring-integrations
 *   worker` (WORKER_CONCURRENCY 20) as their own processes on a fresh database and queue
 *   prefix, NODE_ENV=production, log level info as shipped. One organization connects the
 *   SMTP server (an `smtp` connection, tested through the API) and holds
 *   `notifications.interview_reminder`. This process plays the host: it fires N
 *   `interview.scheduled` hooks over HTTP (`POST /host/v1/hooks/interview.scheduled` with the
 *   operator key, 20 at a time) whose reminder moment has passed (REMINDER_LEAD_MINUTES is a
 *   week), so each job is due at once. Timed from the first hook until the server accepted
 *   the Nth message: the hook (gate, reminder row with its job through the outbox, audit),
 *   the outbox relay, the job (reminder read, license, connection, the run's attempt,
 *   nodemailer's pool, the acknowledgment, the settlement, `interview.reminder_sent` and
 *   `action_run.succeeded`).
 * - The baseline: bench/servers/nodemailer-loop.ts, a bare nodemailer pool (the connector's
 *   5 connections) sending N copies of the reminder the product renders (subject, text and
 *   HTML), 20 at a time, in its own process.
 * - CPU per message: the API's and the worker's (from /proc, over the timed window), the
 *   PostgreSQL backends serving the product's database (from /proc; readable when the
 *   server runs on this machine), the Redis server's (its INFO, shared with anything else
 *   using that Redis: context only), against the baseline process's own. Both sides get a
 *   warm-up of WARMUP messages first.
 * - Statements: every query the product's two processes sent during the window, counted by
 *   bench/lib/count-statements.ts (preloaded, `BEGIN`/`COMMIT` included); BENCH_SQL=1 prints them.
 *
 * Alone: `node dist/bench/reminders.bench.js`; in `npm run bench` as the `reminders` part.
 */
import 'reflect-metadata';
import path from 'node:path';
import { Redis } from 'ioredis';
import { reminderEmail, type InterviewReminder } from '../src/features/reminders/domain/interview-reminders';
import { operatorServices } from '../src/standalone/cli/operator-services';
import { request } from '../test/helpers/test-host';
import { backendsCpu, cpuMs, nextMessage, reached, redisCpuMs, startNode, statementsOf, waitForMessage, type BenchProcess } from './lib/spawn';
import { Product } from './product';

export interface ReminderBenchResult {
  reminders: number;
  remindersPerSecond: number;
  nodemailerPerSecond: number;
  ratio: number;
  concurrency: number;
  /** SQL statements the product ran per reminder during the measurement (hook → run → SMTP). */
  statementsPerReminder: number;
  /** CPU ms per message: the product's API and worker processes, and the baseline process. */
  cpu: {
    apiMs: number;
    workerMs: number;
    productMs: number;
    postgresMs: number | undefined;
    redisMs: number | undefined;
    baselineMs: number;
    smtpServerMs: number | undefined;
    /** Baseline CPU per message ÷ the product's (API + worker): the share of the baseline's speed a CPU-bound product would reach. */
    ratio: number;
  };
}

const CONCURRENCY = 20;
const COUNT_STATEMENTS = path.join(__dirname, 'lib/count-statements.js');

/** What the SMTP sink reports once it has seen a number of messages. */
type SinkReport = { connections: number; bytes: number };

export async function benchReminders(options: { databaseUrl: string; redisUrl: string; reminders?: number }): Promise<ReminderBenchResult> {
  const total = options.reminders ?? 1000;
  const warmup = Math.min(100, Math.ceil(total / 10));
  const sink = startNode('smtp-sink', path.join(__dirname, 'servers/smtp-sink.js'), [], {});
  const { port } = (await waitForMessage(sink)) as { port: number };
  const product = await Product.create(options.databaseUrl, options.redisUrl, 'reminders-');
  const redis = new Redis(options.redisUrl);
  let baseline: BenchProcess | undefined;
  try {
    Object.assign(product.env, {
      REMINDER_LEAD_MINUTES: String(7 * 24 * 60),
      // The bench's SMTP server listens on loopback: the connections' SSRF guard must allow it.
      CONNECTOR_ALLOWED_INTERNAL_HOSTS: '127.0.0.1',
      WORKER_CONCURRENCY: String(CONCURRENCY),
    });
    const preload = ['--require', COUNT_STATEMENTS];
    await product.startApi(preload);
    await product.startWorker({}, preload);
    const { organization, key } = await operatorServices(product.db, product.config).organizations.create('Bench Org');
    const call = async (method: string, url: string, body?: object) => {
      const response = await request(product.baseUrl, method, url, { auth: key.apiKey, ...(body ? { body } : {}) });
      if (response.status >= 300) throw new Error(`${method} ${url}: ${response.status} ${response.text}`);
      return response.body as Record<string, any>;
    };
    const connection = await call('POST', '/v1/integrations/connections', {
      connector: 'smtp',
      settings: { host: '127.0.0.1', port, security: 'none', from_email: 'jobs@bench.example' },
      credentials: {},
    });
    const tested = await call('POST', `/v1/integrations/connections/${connection.id}/test`);
    if (!tested.ok) throw new Error(`the connection test failed: ${JSON.stringify(tested)}`);
    await call('POST', '/v1/integrations/licenses/notifications.interview_reminder/activate');
    await product.waitForLicenses();

    const startsAt = new Date(Date.now() + 3_600_000).toISOString();
    const hookUrl = `${product.baseUrl}/host/v1/hooks/interview.scheduled`;
    const headers = { authorization: `Bearer ${product.env.OPERATOR_API_KEY}`, 'content-type': 'application/json' };
    let fired = 0;
    const fire = async (until: number) => {
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (fired < until) {
            const i = fired++;
            const body = JSON.stringify({
              organization_id: organization.id,
              payload: {
                interview_id: `int_bench_${i}`,
                candidate: { name: 'Ada Lovelace', email: `ada+${i}@bench.example` },
                starts_at: startsAt,
                title: 'Onsite interview',
              },
            });
            const response = await fetch(hookUrl, { method: 'POST', headers, body });
            const result = (await response.json()) as { handled?: unknown[] };
            if (response.status !== 200 || result.handled?.length !== 1)
              throw new Error(`the hook was not handled: ${response.status} ${JSON.stringify(result)}`);
          }
        }),
      );
    };
    // Warm-up (JIT, caches, pooled connections), then the measured window.
    await fire(warmup);
    const warmed = await reached<SinkReport>(sink, warmup);
    await Promise.all([statementsOf(product.api!), statementsOf(product.worker!)]);
    const api = product.api!.child.pid;
    const worker = product.worker!.child.pid;
    const before = { api: cpuMs(api), worker: cpuMs(worker), sink: cpuMs(sink.child.pid), pg: await backendsCpu(product.db), redis: await redisCpuMs(redis) };
    const started = process.hrtime.bigint();
    const done = reached<SinkReport>(sink, warmup + total);
    await fire(warmup + total);
    if (process.env.BENCH_SQL) console.error(`hooks done after ${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(2)} s`);
    const productSmtp = await done;
    const productSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    const after = { api: cpuMs(api), worker: cpuMs(worker), sink: cpuMs(sink.child.pid), pg: await backendsCpu(product.db), redis: await redisCpuMs(redis) };
    // Batched statements differ only in their number of placeholders: counted as one shape.
    const shape = (sql: string) =>
      sql
        .replace(/\s+/g, ' ')
        .replace(/\$\d+(::\w+)?/g, '?')
        .replace(/\(\?(, \?)*\)(, \(\?(, \?)*\))+/g, '(…), …')
        .replace(/\?(, \?)+/g, '…');
    const statements = new Map<string, number>();
    const latency = new Map<string, number>();
    const [apiCounts, workerCounts] = await Promise.all([statementsOf(product.api!), statementsOf(product.worker!)]);
    for (const [side, counts] of [
      ['api', apiCounts],
      ['worker', workerCounts],
    ] as const)
      for (const [sql, n] of Object.entries(counts.statements)) {
        const key = `${side.padEnd(6)} ${shape(sql)}`;
        statements.set(key, (statements.get(key) ?? 0) + n);
        latency.set(key, (latency.get(key) ?? 0) + (counts.latencyMs[sql] ?? 0));
      }
    const statementCount = [...statements.values()].reduce((a, b) => a + b, 0);
    if (process.env.BENCH_SQL) {
      // Per reminder, then the mean time from the call to the answer (waiting for the connection's turn included).
      for (const [sql, n] of [...statements].sort((a, b) => b[1] - a[1]))
        console.error(`${(n / total).toFixed(2)} ${((latency.get(sql) ?? 0) / n).toFixed(1).padStart(6)} ms  ${sql.slice(0, 150)}`);
    }
    let postgres: number | undefined;
    if (before.pg.size + after.pg.size > 0) {
      postgres = 0;
      for (const [pid, ms] of after.pg) postgres += ms - (before.pg.get(pid) ?? 0);
    }

    // Baseline: nodemailer's pool in its own process, the same warm-up, concurrency and server, the same message.
    const rendered = reminderEmail({
      startsAt: new Date(startsAt),
      details: { candidate: { name: 'Ada Lovelace', email: 'ada@bench.example' }, title: 'Onsite interview' },
    } as InterviewReminder);
    const sent = warmup + total;
    const loop = (n: number) => {
      baseline = startNode('nodemailer-loop', path.join(__dirname, 'servers/nodemailer-loop.js'), [], {
        SMTP_PORT: String(port),
        TOTAL: String(n),
        CONCURRENCY: String(CONCURRENCY),
        MESSAGE: JSON.stringify({ subject: rendered.subject, text: rendered.text, html: rendered.html }),
      });
      return baseline;
    };
    const warm = loop(warmup);
    await waitForMessage(warm);
    warm.child.send({ go: true });
    await nextMessage(warm, (m) => m?.seconds as number | undefined);
    await warm.stop();
    const measured = loop(total);
    await waitForMessage(measured);
    const baselineWarmed = await reached<SinkReport>(sink, sent + warmup);
    const sinkBefore = cpuMs(sink.child.pid);
    measured.child.send({ go: true });
    const bare = await nextMessage(measured, (m) => (typeof m?.seconds === 'number' ? (m as { seconds: number; cpuMs: number }) : undefined));
    const sinkAfter = cpuMs(sink.child.pid);
    const baselineSmtp = await reached<SinkReport>(sink, sent + warmup + total);
    await measured.stop();

    const perMessage = (a: number | undefined, b: number | undefined) => (a !== undefined && b !== undefined ? (b - a) / total : undefined);
    const apiMs = perMessage(before.api, after.api) ?? NaN;
    const workerMs = perMessage(before.worker, after.worker) ?? NaN;
    const productSink = perMessage(before.sink, after.sink);
    const baselineSink = perMessage(sinkBefore, sinkAfter);
    const remindersPerSecond = total / productSeconds;
    const nodemailerPerSecond = total / bare.seconds;
    const baselineMs = bare.cpuMs / total;
    if (process.env.BENCH_SQL) {
      const side = (from: { connections: number; bytes: number }, to: { connections: number; bytes: number }, cpu: number | undefined) =>
        `${to.connections - from.connections} connections, ${Math.round((to.bytes - from.bytes) / total)} bytes and ${cpu?.toFixed(3)} ms CPU per message`;
      console.error(`smtp-sink, product: ${side(warmed, productSmtp, productSink)}; baseline: ${side(baselineWarmed, baselineSmtp, baselineSink)}`);
    }
    return {
      reminders: total,
      remindersPerSecond,
      nodemailerPerSecond,
      ratio: remindersPerSecond / nodemailerPerSecond,
      concurrency: CONCURRENCY,
      statementsPerReminder: statementCount / total,
      cpu: {
        apiMs,
        workerMs,
        productMs: apiMs + workerMs,
        postgresMs: postgres === undefined ? undefined : postgres / total,
        redisMs: perMessage(before.redis, after.redis),
        baselineMs,
        smtpServerMs: productSink,
        ratio: baselineMs / (apiMs + workerMs),
      },
    };
  } finally {
    await baseline?.stop();
    redis.disconnect();
    await product.close();
    await sink.stop();
  }
}

if (require.main === module) {
  benchReminders({
    databaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    reminders: Number(process.env.BENCH_REMINDERS ?? 1000),
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
