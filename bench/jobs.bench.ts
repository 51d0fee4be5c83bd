/**
 * (3) profile-import jobs per second with one `hiring-integrations worker` process beside
 * BullMQ no-op jobs in one worker process at the same concurrency, on the same Redis.
 * Each is timed from the first add until the queue counts them all completed.
 */
import path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { PACKAGE_ROOT } from '../src/manifest/manifest';
import { loadManifest } from '../src/manifest/manifest';
import { cpuMs, startNode, waitForMessage } from './lib/spawn';
import type { Product } from './product';

export interface JobsResult {
  importPerSecond: number;
  noopPerSecond: number;
  jobs: number;
  concurrency: number;
  failed: number;
  /** CPU per job: the worker process, and the API process answering the sandbox provider's profile calls. */
  importWorkerCpuMs?: number;
  importProviderCpuMs?: number;
  noopWorkerCpuMs?: number;
}

async function timeJobs(redisUrl: string, prefix: string, queueName: string, jobs: Array<{ name: string; data: object; opts: { jobId: string } }>): Promise<{ seconds: number; failed: number }> {
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

export async function benchJobs(product: Product, options: { jobs: number }): Promise<JobsResult> {
  const definition = loadManifest().queues.find((q) => q.name === 'profile-import');
  if (!definition) throw new Error('the manifest declares no profile-import queue');
  const concurrency = definition.concurrency;

  const authorizations: Array<{ id: string; organization_id: string; profile_user_id: string }> = await product.db('hi_candidate_authorizations').select('id', 'organization_id', 'profile_user_id');
  const imports = Array.from({ length: options.jobs }, (_, i) => {
    const a = authorizations[i % authorizations.length]!;
    return { name: 'import', data: { organization_id: a.organization_id, profile_user_id: a.profile_user_id, authorization_id: a.id }, opts: { jobId: `bench-import-${i}` } };
  });
  if (!product.worker) await product.startWorker();
  const [worker0, api0] = [cpuMs(product.worker!.child.pid), cpuMs(product.api?.child.pid)];
  const imported = await timeJobs(product.redisUrl, product.queuePrefix, 'profile-import', imports);
  const [worker1, api1] = [cpuMs(product.worker!.child.pid), cpuMs(product.api?.child.pid)];

  const prefix = `{hi-bench-noop-${Date.now()}}`;
  const noopWorker = startNode('noop-worker', path.join(PACKAGE_ROOT, 'dist/bench/servers/noop-worker.js'), [], {
    REDIS_URL: product.redisUrl,
    QUEUE_PREFIX: prefix,
    QUEUE_NAME: 'noop',
    CONCURRENCY: String(concurrency),
  });
  await waitForMessage(noopWorker);
  const noops = Array.from({ length: options.jobs }, (_, i) => ({ name: 'noop', data: { i }, opts: { jobId: `noop-${i}` } }));
  const noop0 = cpuMs(noopWorker.child.pid);
  const noop = await timeJobs(product.redisUrl, prefix, 'noop', noops);
  const noop1 = cpuMs(noopWorker.child.pid);
  await noopWorker.stop('SIGTERM');
  const cleanupConnection = new Redis(product.redisUrl, { maxRetriesPerRequest: null });
  const cleanup = new Queue('noop', { connection: cleanupConnection, prefix });
  await cleanup.obliterate({ force: true });
  await cleanup.close();
  await cleanupConnection.quit();

  return {
    importPerSecond: options.jobs / imported.seconds,
    noopPerSecond: options.jobs / noop.seconds,
    jobs: options.jobs,
    concurrency,
    failed: imported.failed + noop.failed,
    importWorkerCpuMs: worker0 !== undefined && worker1 !== undefined ? (worker1 - worker0) / options.jobs : undefined,
    importProviderCpuMs: api0 !== undefined && api1 !== undefined ? (api1 - api0) / options.jobs : undefined,
    noopWorkerCpuMs: noop0 !== undefined && noop1 !== undefined ? (noop1 - noop0) / options.jobs : undefined,
  };
}
