/**
 * (3) profile-import jobs per second with one `hiring-integrations worker` process beside
 * the minimal-import baseline (bench/servers/minimal-import-worker.ts: one SELECT, one
 * HTTP GET to the same sandbox profile endpoint, one INSERT … ON CONFLICT per job) in one
 * worker process at the same concurrency, on the same PostgreSQL, Redis and provider.
 * Each is timed from the first add until the queue counts them all completed. The
 * product's other queues are drained first (the apply benchmark leaves thousands of
 * pipeline deliveries behind; they would share the worker with the imports).
 */
import path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { PACKAGE_ROOT } from '../src/platform/manifest/manifest';
import { loadManifest } from '../src/platform/manifest/manifest';
import { deriveKey } from '../src/platform/security/key-derivation';
import { TokenCipher } from '../src/platform/security/token-cipher';
import { cpuMs, startNode, waitForMessage } from './lib/spawn';
import type { Product } from './product';

export interface JobsResult {
  importPerSecond: number;
  minimalPerSecond: number;
  jobs: number;
  concurrency: number;
  failed: number;
  /** CPU per job: the worker process, and the API process answering the sandbox provider's profile calls. */
  importWorkerCpuMs?: number;
  importProviderCpuMs?: number;
  minimalWorkerCpuMs?: number;
  minimalProviderCpuMs?: number;
}

async function timeJobs(
  redisUrl: string,
  prefix: string,
  queueName: string,
  jobs: Array<{ name: string; data: object; opts: { jobId: string } }>,
): Promise<{ seconds: number; failed: number }> {
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue(queueName, { connection, prefix });
  // Counted from the queue's own counters (events can be trimmed from the stream under load).
  const base = await queue.getJobCounts('completed', 'failed');
  const started = process.hrtime.bigint();
  for (let i = 0; i < jobs.length; i += 500) await queue.addBulk(jobs.slice(i, i + 500));
  const deadline = Date.now() + 120_000;
  let counts = base;
  for (;;) {
    counts = await queue.getJobCounts('completed', 'failed');
    const done = counts.completed! - base.completed! + counts.failed! - base.failed!;
    if (done >= jobs.length) break;
    if (Date.now() > deadline) throw new Error(`${queueName}: ${jobs.length - done} jobs unfinished after 120 s`);
    await new Promise((r) => setTimeout(r, 10));
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await queue.close();
  await connection.quit();
  return { seconds, failed: counts.failed! - base.failed! };
}

/** Waits until none of the product's queues has work waiting or running. */
async function drain(product: Product, timeoutMs = 180_000): Promise<void> {
  const connection = new Redis(product.redisUrl, { maxRetriesPerRequest: null });
  const queues = loadManifest().queues.map((q) => new Queue(q.name, { connection, prefix: product.queuePrefix }));
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      let pending = 0;
      for (const queue of queues) {
        const counts = await queue.getJobCounts('waiting', 'active', 'prioritized');
        pending += (counts.waiting ?? 0) + (counts.active ?? 0) + (counts.prioritized ?? 0);
      }
      if (pending === 0) return;
      if (Date.now() > deadline) throw new Error(`${pending} jobs still pending after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    for (const queue of queues) await queue.close();
    await connection.quit();
  }
}

export async function benchJobs(product: Product, options: { jobs: number }): Promise<JobsResult> {
  const definition = loadManifest().queues.find((q) => q.name === 'profile-import');
  if (!definition) throw new Error('the manifest declares no profile-import queue');
  const concurrency = definition.concurrency;

  const authorizations: Array<{ id: string; organization_id: string; profile_user_id: string; access_token_ciphertext: string }> = await product
    .db('hi_candidate_authorizations')
    .select('id', 'organization_id', 'profile_user_id', 'access_token_ciphertext');
  const imports = Array.from({ length: options.jobs }, (_, i) => {
    const a = authorizations[i % authorizations.length]!;
    return {
      name: 'import',
      data: { organization_id: a.organization_id, profile_user_id: a.profile_user_id, authorization_id: a.id },
      opts: { jobId: `bench-import-${i}` },
    };
  });
  if (!product.worker) await product.startWorker();
  await drain(product);
  const [worker0, api0] = [cpuMs(product.worker!.child.pid), cpuMs(product.api?.child.pid)];
  const imported = await timeJobs(product.redisUrl, product.queuePrefix, 'profile-import', imports);
  const [worker1, api1] = [cpuMs(product.worker!.child.pid), cpuMs(product.api?.child.pid)];
  // The minimal worker runs alone, as the product's worker did.
  await product.stopWorker();

  // The baseline's tokens in plain text (it does no decryption), its snapshots in a table of its own.
  const cipher = new TokenCipher(deriveKey(product.config.secretKey, 'oauth-token-encryption'));
  await product.db.schema.createTable('bench_minimal_tokens', (t) => {
    t.text('organization_id').notNullable();
    t.text('profile_user_id').notNullable();
    t.text('access_token').notNullable();
    t.primary(['organization_id', 'profile_user_id']);
  });
  await product.db.schema.createTable('bench_minimal_snapshots', (t) => {
    t.text('organization_id').notNullable();
    t.text('profile_user_id').notNullable();
    t.jsonb('profile').notNullable();
    t.timestamp('imported_at', { useTz: true }).notNullable();
    t.primary(['organization_id', 'profile_user_id']);
  });
  await product.db('bench_minimal_tokens').insert(
    authorizations.map((a) => ({
      organization_id: a.organization_id,
      profile_user_id: a.profile_user_id,
      access_token: cipher.decrypt(a.access_token_ciphertext, `${a.organization_id}/${a.profile_user_id}/access`),
    })),
  );

  const prefix = `{hi-bench-minimal-${Date.now()}}`;
  const minimalWorker = startNode('minimal-import-worker', path.join(PACKAGE_ROOT, 'dist/bench/servers/minimal-import-worker.js'), [], {
    REDIS_URL: product.redisUrl,
    DATABASE_URL: product.database.url,
    PROFILE_URL: `${product.config.sandboxInternalUrl}/sandbox/v1/profile`,
    QUEUE_PREFIX: prefix,
    QUEUE_NAME: 'minimal-import',
    CONCURRENCY: String(concurrency),
  });
  await waitForMessage(minimalWorker);
  const minimalJobs = Array.from({ length: options.jobs }, (_, i) => {
    const a = authorizations[i % authorizations.length]!;
    return { name: 'import', data: { organization_id: a.organization_id, profile_user_id: a.profile_user_id }, opts: { jobId: `minimal-${i}` } };
  });
  const [minimal0, minimalApi0] = [cpuMs(minimalWorker.child.pid), cpuMs(product.api?.child.pid)];
  const minimal = await timeJobs(product.redisUrl, prefix, 'minimal-import', minimalJobs);
  const [minimal1, minimalApi1] = [cpuMs(minimalWorker.child.pid), cpuMs(product.api?.child.pid)];
  await minimalWorker.stop('SIGTERM');
  const cleanupConnection = new Redis(product.redisUrl, { maxRetriesPerRequest: null });
  const cleanup = new Queue('minimal-import', { connection: cleanupConnection, prefix });
  await cleanup.obliterate({ force: true });
  await cleanup.close();
  await cleanupConnection.quit();

  const perJob = (a?: number, b?: number) => (a !== undefined && b !== undefined ? (b - a) / options.jobs : undefined);
  return {
    importPerSecond: options.jobs / imported.seconds,
    minimalPerSecond: options.jobs / minimal.seconds,
    jobs: options.jobs,
    concurrency,
    failed: imported.failed + minimal.failed,
    importWorkerCpuMs: perJob(worker0, worker1),
    importProviderCpuMs: perJob(api0, api1),
    minimalWorkerCpuMs: perJob(minimal0, minimal1),
    minimalProviderCpuMs: perJob(minimalApi0, minimalApi1),
  };
}
