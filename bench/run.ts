/**
 * `npm run bench`: every benchmark of issue 8 in one run, printed as one table (and saved
 * to bench-results/latest.json and latest.md). Needs PostgreSQL and Redis: DATABASE_URL
 * (a server URL; a fresh database is created and dropped) and REDIS_URL, defaulting to the
 * local services. Never part of `npm test`.
 */
import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchActivation } from './activation.bench';
import { benchApply, type ApplyResult } from './apply.bench';
import { compareProfiles } from './profile-compare';
import { gateRows } from './gate';
import { benchJobs } from './jobs.bench';
import { benchWebhooks } from './webhooks.bench';
import { benchReminders } from './reminders.bench';
import { benchStartup } from './startup.bench';
import { benchCompliance } from './compliance.bench';
import { RESULTS_DIR, stopAll } from './lib/spawn';
import { Product } from './product';
import { printTable, type BenchRow } from './report';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 3);
const JOBS = Number(process.env.BENCH_JOBS ?? 2000);
const ACTIVATIONS = Number(process.env.BENCH_ACTIVATIONS ?? 100);
/** BENCH_ONLY=apply,jobs,... runs a subset (profiling one part). */
const ONLY = new Set((process.env.BENCH_ONLY ?? 'apply,gate,jobs,activation,webhooks,reminders,compliance,startup').split(','));
const STARTS = Number(process.env.BENCH_STARTS ?? 3);
/** The apply benchmark alternates baseline and API this many times (each one's BENCH_DURATION split into slices). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WEBHOOK_DELIVERIES = Number(process.env.BENCH_WEBHOOKS ?? 2000);
const REMINDERS = Number(process.env.BENCH_REMINDERS ?? 1000);

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function machine(product: Product): Promise<Record<string, string>> {
  const pg = (await product.db.raw('show server_version')).rows[0].server_version as string;
  let redis = '?';
  try {
    const { Redis } = await import('ioredis');
    const client = new Redis(REDIS_URL, { lazyConnect: true });
    await client.connect();
    redis = /redis_version:(\S+)/.exec(await client.info('server'))?.[1] ?? '?';
    await client.quit();
  } catch {
    /* reported as ? */
  }
  let cpu = os.cpus()[0]?.model ?? '?';
  try {
    cpu = execFileSync('sh', ['-c', "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"], { encoding: 'utf8' }).trim() || cpu;
  } catch {
    /* keep os.cpus() */
  }
  return {
    nproc: String(os.availableParallelism()),
    cpu,
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    load: os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
    postgres: pg,
    redis,
  };
}

async function main(): Promise<void> {
  const rows: BenchRow[] = [];
  const product = await Product.create(DATABASE_URL, REDIS_URL);
  const raw: Record<string, unknown> = {};
  try {
    await product.startApi();
    await product.startWorker();
    // Enough unique (organization, listing, candidate) triples for warm-up + measurement at ~6k/s.
    const needed = Math.ceil(((WARMUP_S + DURATION_S) * 6000) / (3 * 4));
    await product.seed(3, needed);
    await product.connectCandidates();
    await product.waitForSnapshots();
    await product.waitForLicenses();
    raw.machine = await machine(product);
    // The apply benchmark measures the API alone, as the baseline server is alone.
    await product.stopWorker();

    if (ONLY.has('apply')) {
      const apply = await benchApply(product, { connections: CONNECTIONS, durationS: DURATION_S, warmupS: WARMUP_S, rounds: ROUNDS });
      raw.apply = apply;
      const ratio = apply.apply.rps / apply.baseline.rps;
      rows.push({
        name: `apply endpoint, ${CONNECTIONS} connections (req/s)`,
        measured: `${fmt(apply.apply.rps)} req/s`,
        baseline: `${fmt(apply.baseline.rps)} req/s (Express + INSERT + BullMQ add)`,
        ratio,
        target: '≥ 70%',
        met: ratio >= 0.7,
      });
      rows.push({
        name: 'apply endpoint latency p50 / p99',
        measured: `${apply.apply.p50} / ${apply.apply.p99} ms`,
        baseline: `${apply.baseline.p50} / ${apply.baseline.p99} ms`,
        ratio: undefined,
        target: 'p99 < 50 ms',
        met: apply.apply.p99 < 50,
      });
      if (apply.apply.serverCpuMsPerRequest !== undefined && apply.baseline.serverCpuMsPerRequest !== undefined) {
        const times = apply.apply.serverCpuMsPerRequest / apply.baseline.serverCpuMsPerRequest;
        rows.push({
          name: 'apply: API CPU per application ÷ baseline',
          measured: `${fmt(apply.apply.serverCpuMsPerRequest, 2)} ms`,
          baseline: `${fmt(apply.baseline.serverCpuMsPerRequest, 2)} ms`,
          ratio: times,
          ratioText: `${fmt(times, 2)}×`,
          target: '≤ 1.5×',
          met: times <= 1.5,
        });
      }
      if (apply.apiRssMb !== undefined) {
        rows.push({
          name: 'API RSS after the apply benchmark',
          measured: `${fmt(apply.apiRssMb)} MB`,
          baseline: apply.apiHeap ? `(V8 heap ${fmt(apply.apiHeap.usedMb)} MB used of ${fmt(apply.apiHeap.totalMb)})` : '—',
          ratio: undefined,
          target: '< 250 MB',
          met: apply.apiRssMb < 250,
        });
      }
      if (apply.apply.non2xx + apply.apply.errors > 0 || apply.baseline.non2xx + apply.baseline.errors > 0) {
        rows.push({
          name: 'apply: failed requests',
          measured: `${apply.apply.non2xx} non-2xx, ${apply.apply.errors} errors`,
          baseline: `${apply.baseline.non2xx} non-2xx, ${apply.baseline.errors} errors`,
          ratio: undefined,
          target: '0',
          met: false,
        });
      }
    }

    if (ONLY.has('gate')) {
      const gate = await gateRows();
      raw.gate = gate.raw;
      rows.push(...gate.rows);
    }

    if (ONLY.has('jobs')) {
      const jobs = await benchJobs(product, { jobs: JOBS });
      raw.jobs = jobs;
      const ratio = jobs.importPerSecond / jobs.minimalPerSecond;
      rows.push({
        name: `profile-import jobs, 1 worker, concurrency ${jobs.concurrency} (jobs/s)`,
        measured: `${fmt(jobs.importPerSecond)} jobs/s`,
        baseline: `${fmt(jobs.minimalPerSecond)} jobs/s (minimal import: SELECT + GET + upsert)`,
        ratio,
        target: '≥ 70%',
        met: ratio >= 0.7 && jobs.failed === 0,
      });
      if (jobs.importWorkerCpuMs !== undefined && jobs.minimalWorkerCpuMs !== undefined) {
        rows.push({
          name: 'jobs: CPU per job (worker + provider)',
          measured: `${fmt(jobs.importWorkerCpuMs, 2)} + ${fmt(jobs.importProviderCpuMs ?? NaN, 2)} ms`,
          baseline: `${fmt(jobs.minimalWorkerCpuMs, 2)} + ${fmt(jobs.minimalProviderCpuMs ?? NaN, 2)} ms`,
          ratio: undefined,
          target: '(explains the rate)',
          met: undefined,
        });
      }
      if (jobs.failed > 0) rows.push({ name: 'jobs: failed', measured: String(jobs.failed), baseline: '—', ratio: undefined, target: '0', met: false });
    }

    if (ONLY.has('activation')) {
      const activation = await benchActivation(product, { samples: ACTIVATIONS });
      raw.activation = activation;
      rows.push({
        name: `activation → license active, ${activation.samples} sequential (ms)`,
        measured: `p50 ${fmt(activation.p50, 1)} / p99 ${fmt(activation.p99, 1)} ms`,
        baseline: '—',
        ratio: undefined,
        target: '(reported)',
        met: undefined,
      });
    }

    if (ONLY.has('webhooks')) {
      // Its own API and worker processes, database, queue prefix and receiver process (bench/webhooks.bench.ts).
      const webhooks = await benchWebhooks({ databaseUrl: DATABASE_URL, redisUrl: REDIS_URL, deliveries: WEBHOOK_DELIVERIES });
      raw.webhooks = webhooks;
      rows.push({
        name: `webhook deliveries, outbox → API relay → worker → receiver (own process), concurrency ${webhooks.concurrency} (deliveries/s)`,
        measured: `${fmt(webhooks.deliveriesPerSecond)} deliveries/s, ${webhooks.statementsPerDelivery.toFixed(1)} SQL statements each`,
        baseline: `${fmt(webhooks.fetchPerSecond)} POST/s (bare fetch loop in its own process, same receiver)`,
        ratio: webhooks.ratio,
        target: '≥ 70%',
        met: webhooks.ratio >= 0.7,
      });
      // CPU, which the machine's load moves far less than the rates: baseline's per POST ÷ product's per delivery.
      const cpu = webhooks.cpu;
      rows.push({
        name: 'webhook deliveries: CPU per delivery (API + worker + PostgreSQL backends; Redis shared, shown apart)',
        measured: `${fmt(cpu.productMs + (cpu.postgresMs ?? 0), 3)} ms (API ${fmt(cpu.apiMs, 3)}, worker ${fmt(cpu.workerMs, 3)}, PostgreSQL ${cpu.postgresMs === undefined ? '—' : fmt(cpu.postgresMs, 3)}; Redis server ${cpu.redisMs === undefined ? '—' : fmt(cpu.redisMs, 3)})`,
        baseline: `${fmt(cpu.baselineMs, 3)} ms per bare POST (fetch loop process)`,
        ratio: cpu.ratio,
        target: '(reported)',
        met: undefined,
      });
    }

    if (ONLY.has('reminders')) {
      // Its own API and worker processes, database, queue prefix and SMTP server process (bench/reminders.bench.ts).
      const reminders = await benchReminders({ databaseUrl: DATABASE_URL, redisUrl: REDIS_URL, reminders: REMINDERS });
      raw.reminders = reminders;
      rows.push({
        name: `reminder emails, hook over HTTP → API → worker → SMTP (smtp-server process), concurrency ${reminders.concurrency} (emails/s)`,
        measured: `${fmt(reminders.remindersPerSecond)} emails/s, ${reminders.statementsPerReminder.toFixed(1)} SQL statements each`,
        baseline: `${fmt(reminders.nodemailerPerSecond)} emails/s (bare nodemailer pool loop, same server)`,
        ratio: reminders.ratio,
        target: '≥ 70%',
        met: reminders.ratio >= 0.7,
      });
      const { cpu } = reminders;
      const extra = [
        cpu.postgresMs === undefined ? undefined : `PostgreSQL backends ${fmt(cpu.postgresMs, 2)} ms`,
        cpu.redisMs === undefined ? undefined : `Redis ${fmt(cpu.redisMs, 2)} ms (shared server)`,
      ].filter(Boolean);
      rows.push({
        name: 'reminders: CPU per email, baseline ÷ product (API + worker processes)',
        measured: `${fmt(cpu.productMs, 2)} ms (API ${fmt(cpu.apiMs, 2)} + worker ${fmt(cpu.workerMs, 2)})${extra.length ? `; besides: ${extra.join(', ')}` : ''}`,
        baseline: `${fmt(cpu.baselineMs, 2)} ms (nodemailer loop process)`,
        ratio: cpu.ratio,
        target: '≥ 70%',
        met: cpu.ratio >= 0.7,
      });
    }

    if (ONLY.has('compliance')) {
      const compliance = await benchCompliance(product, { people: 10_000, samples: 5 });
      raw.compliance = compliance;
      rows.push({
        name: `GET /v1/compliance, ${fmt(compliance.people)} people: every row as CSV (streamed), then one filtered JSON page`,
        measured: `CSV ${fmt(compliance.csvRows)} rows: median ${fmt(compliance.csvMedianMs)} ms, max ${fmt(compliance.csvMaxMs)} ms; JSON page: median ${fmt(compliance.jsonMedianMs, 1)} ms`,
        baseline: '—',
        ratio: undefined,
        target: '< 1 s',
        met: compliance.csvMaxMs < 1000 && compliance.jsonMaxMs < 1000 && compliance.csvRows === compliance.people,
      });
    }

    if (ONLY.has('startup')) {
      const startup = await benchStartup(product, { samples: STARTS });
      raw.startup = startup;
      rows.push({
        name: `npm start (built tree) → /healthz, ${startup.samplesMs.length} starts`,
        measured: `max ${fmt(startup.maxMs / 1000, 2)} s (median ${fmt(startup.medianMs / 1000, 2)} s)`,
        baseline: '—',
        ratio: undefined,
        target: '≤ 3 s',
        met: startup.maxMs <= 3000,
      });
    }
  } finally {
    await product.close().catch((error) => console.error('cleanup:', error));
    await stopAll();
  }

  const table = printTable(rows);
  const m = raw.machine as Record<string, string> | undefined;
  const header = m
    ? `machine: ${m.nproc} cores (${m.cpu}), ${m.memory}, ${m.os}; node ${m.node}, PostgreSQL ${m.postgres}, Redis ${m.redis}; load average at setup ${m.load}`
    : '';
  console.log(`\n${header}\n\n${table}\n`);
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(path.join(RESULTS_DIR, 'latest.json'), JSON.stringify({ at: new Date().toISOString(), ...raw, rows }, null, 2));
  writeFileSync(path.join(RESULTS_DIR, 'latest.md'), `${header}\n\n${table}\n`);
  const apply = raw.apply as ApplyResult | undefined;
  if (process.env.BENCH_PROFILE && apply) {
    // Both profiles are written when their processes exit, which they now have.
    const profiles = path.join(RESULTS_DIR, 'profiles');
    const comparison = compareProfiles(
      { file: path.join(profiles, 'api.cpuprofile'), label: 'apply endpoint', requests: apply.apply.okWithWarmup ?? apply.apply.ok },
      { file: path.join(profiles, 'baseline-server.cpuprofile'), label: 'baseline', requests: apply.baseline.okWithWarmup ?? apply.baseline.ok },
    );
    writeFileSync(path.join(RESULTS_DIR, 'apply-profile-compare.md'), `${comparison}\n`);
    console.log(`${comparison}\n`);
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    void stopAll().finally(() => process.exit(1));
  },
);
