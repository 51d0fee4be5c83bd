/**
 * The baseline for job throughput: one BullMQ worker doing nothing per job, on the same
 * Redis and at the same concurrency as the profile-import worker it is compared with.
 */
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';

const connection = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
const worker = new Worker(process.env.QUEUE_NAME!, async () => undefined, {
  connection,
  prefix: process.env.QUEUE_PREFIX!,
  concurrency: Number(process.env.CONCURRENCY),
});
void worker.waitUntilReady().then(() => process.send?.('ready'));
process.on('SIGTERM', async () => {
  await worker.close();
  await connection.quit();
  process.exit(0);
});
