/**
 * Reminder emails per second through the product, beside a bare nodemailer loop to the
 * same SMTP server from the same process.
 *
 * `smtp-server` runs in this process (plain SMTP on 127.0.0.1, no AUTH). A standalone host
 * runs here too, on a fresh PostgreSQL database and its own queue prefix, with its workers
 * running: one organization connects that server (an `smtp` connection, tested), holds
 * `notifications.interview_reminder`, and N `interview.scheduled` hooks are fired (20 at a
 * time) whose reminder moment has passed (REMINDER_LEAD_MINUTES is a week), so each job is
 * due at once. The clock runs from the first hook until the server has accepted all N
 * messages: each hook passes the gate and writes the reminder with its job (outbox); each job reads its reminder, checks the license, resolves the connection
 * (decrypting its credentials), records the run's attempt, sends through nodemailer
 * (pooled, as the connector is), records the acknowledgment and publishes
 * `interview.reminder_sent` and `action_run.succeeded`. The baseline sends N messages of the
 * same size with nodemailer's pool (the connector's 5 connections) and the same concurrency.
 *
 * Alone: `node dist/bench/reminders.bench.js`; in `npm run bench` as the `reminders` part.
 */
import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { createTransport } from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { loadConfig } from '../src/kernel/config';
import { createLogger } from '../src/platform/logging/pino-logger';
import { operatorServices } from '../src/standalone/cli/operator-services';
import { createStandaloneHost } from '../src/standalone/host/standalone-host';
import { createDatabase } from '../src/platform/database/database';
import { createBenchDatabase } from './lib/database';

export interface ReminderBenchResult {
  reminders: number;
  remindersPerSecond: number;
  nodemailerPerSecond: number;
  ratio: number;
  concurrency: number;
  /** SQL statements the product ran per reminder during the measurement (hook → run → SMTP). */
  statementsPerReminder: number;
}

const CONCURRENCY = 20;

export async function benchReminders(options: { databaseUrl: string; redisUrl: string; reminders?: number }): Promise<ReminderBenchResult> {
  const total = options.reminders ?? 1000;
  let received = 0;
  let onReceived: (() => void) | undefined;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () => {
        received += 1;
        callback();
        onReceived?.();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  const database = await createBenchDatabase(options.databaseUrl);
  const db = createDatabase({ databaseUrl: database.url, poolMax: 20 });
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    REDIS_URL: options.redisUrl,
    QUEUE_PREFIX: `{hi-bench-reminders-${Date.now()}}`,
    SECRET_KEY: 'b'.repeat(64),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '0',
    REMINDER_LEAD_MINUTES: String(7 * 24 * 60),
    // The bench's SMTP server listens on loopback: the connections' SSRF guard must allow it.
    CONNECTOR_ALLOWED_INTERNAL_HOSTS: '127.0.0.1',
  });
  const host = await createStandaloneHost({ config, logger: createLogger({ level: 'warn' }), db, runWorkers: false });
  try {
    const { organization, key } = await operatorServices(db, config).organizations.create('Bench Org');
    const api = host.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => api.once('listening', resolve));
    const call = async (method: string, path: string, body?: object) => {
      const response = await fetch(`http://127.0.0.1:${(api.address() as AddressInfo).port}${path}`, {
        method,
        headers: { authorization: `Bearer ${key.apiKey}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const text = await response.text();
      if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
      return JSON.parse(text) as Record<string, any>;
    };
    const connection = await call('POST', '/v1/integrations/connections', {
      connector: 'smtp',
      settings: { host: '127.0.0.1', port, security: 'none', from_email: 'jobs@bench.example' },
      credentials: {},
    });
    const tested = await call('POST', `/v1/integrations/connections/${connection.id}/test`);
    if (!tested.ok) throw new Error(`the connection test failed: ${JSON.stringify(tested)}`);
    await call('POST', '/v1/integrations/licenses/notifications.interview_reminder/activate');
    await host.plugin.startWorkers({ concurrency: CONCURRENCY });
    for (;;) {
      const licenses = await call('GET', '/v1/integrations/licenses?status=active');
      if (licenses.data.length > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    api.closeAllConnections();
    api.close();
    const startsAt = new Date(Date.now() + 3_600_000).toISOString();
    const text = 'Hello Ada, a reminder: "Onsite interview" starts soon.';
    const done = new Promise<void>((resolve) => {
      onReceived = () => received >= total && resolve();
    });
    // The clock covers the whole path: the hook (gate, reminder row, job through the outbox) → the job → the run → SMTP.
    let fired = 0;
    const statements = new Map<string, number>();
    const latency = new Map<string, number>();
    const begun = new Map<string, [string, bigint]>();
    const countStatement = (query: { sql: string; __knexQueryUid: string }) => {
      statements.set(query.sql, (statements.get(query.sql) ?? 0) + 1);
      begun.set(query.__knexQueryUid, [query.sql, process.hrtime.bigint()]);
    };
    const answered = (_r: unknown, query: { __knexQueryUid: string }) => {
      const b = begun.get(query.__knexQueryUid);
      if (b) latency.set(b[0], (latency.get(b[0]) ?? 0) + Number(process.hrtime.bigint() - b[1]) / 1e6);
      begun.delete(query.__knexQueryUid);
    };
    db.on('query', countStatement);
    db.on('query-response', answered);
    const started = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (fired < total) {
          const i = fired++;
          const result = await host.plugin.fireHook('interview.scheduled', organization.id, {
            interview_id: `int_bench_${i}`,
            candidate: { name: 'Ada Lovelace', email: `ada+${i}@bench.example` },
            starts_at: startsAt,
            title: 'Onsite interview',
          });
          if (result.handled.length !== 1) throw new Error(`the hook was not handled: ${JSON.stringify(result)}`);
        }
      }),
    );
    if (process.env.BENCH_SQL) console.error(`hooks done after ${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(2)} s, ${received} received`);
    await done;
    const productSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    onReceived = undefined;
    db.off('query', countStatement);
    const statementCount = [...statements.values()].reduce((a, b) => a + b, 0);
    if (process.env.BENCH_SQL) {
      for (const [sql, n] of [...statements].sort((a, b) => (latency.get(b[0]) ?? 0) - (latency.get(a[0]) ?? 0)))
        console.error(`${(n / total).toFixed(2)} ${((latency.get(sql) ?? 0) / n).toFixed(1)} ms  ${sql.replace(/\s+/g, ' ').slice(0, 140)}`);
    }

    // Baseline: nodemailer's pool (as the connector's), the same concurrency, the same server.
    const transport = createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, pool: true, maxConnections: 5 });
    let next = 0;
    const baselineStart = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < total) {
          next += 1;
          await transport.sendMail({ from: 'jobs@bench.example', to: `ada+${next}@bench.example`, subject: 'Reminder: Onsite interview', text });
        }
      }),
    );
    const baselineSeconds = Number(process.hrtime.bigint() - baselineStart) / 1e9;
    transport.close();
    const remindersPerSecond = total / productSeconds;
    const nodemailerPerSecond = total / baselineSeconds;
    return {
      reminders: total,
      remindersPerSecond,
      nodemailerPerSecond,
      ratio: remindersPerSecond / nodemailerPerSecond,
      concurrency: CONCURRENCY,
      statementsPerReminder: statementCount / total,
    };
  } finally {
    await host.close();
    await db.destroy();
    await database.drop();
    await new Promise((resolve) => smtp.close(() => resolve(undefined)));
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
