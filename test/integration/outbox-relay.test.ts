/** Outbox messages written with a record reach the queue exactly once. */
import { strict as assert } from 'node:assert';
import type { JobContext, JobProcessor, QueueDefinition } from '../../src/kernel/job-queue';
import { createLogger } from '../../src/platform/logging/pino-logger';
import { BullmqJobQueue } from '../../src/platform/queue/bullmq-queue';
import { InlineJobQueue } from '../../src/platform/queue/inline-queue';
import { OutboxRelay } from '../../src/platform/queue/outbox-relay';
import { createRedis } from '../../src/platform/queue/redis';
import { migrateLatest } from '../../src/platform/database/migrator';
import { writeOutbox } from '../../src/platform/queue/outbox';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { uniqueQueuePrefix, usingRedis } from '../helpers/redis';

const logger = createLogger({ level: 'silent' });
const definitions = new Map<string, QueueDefinition>([['echo', { name: 'echo', concurrency: 4, attempts: 3, backoffMs: 10 }]]);

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('outbox relay', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
    await migrateLatest(database.db);
  });
  after(() => database?.drop());

  const adapters: [string, () => { queue: InlineJobQueue | BullmqJobQueue; close(): Promise<void> }][] = [
    [
      'in-process',
      () => {
        const queue = new InlineJobQueue(definitions, logger);
        return { queue, close: () => queue.close() };
      },
    ],
  ];
  if (usingRedis()) {
    adapters.push([
      'BullMQ',
      () => {
        const connection = createRedis(process.env.REDIS_URL!, 'client');
        const queue = new BullmqJobQueue({
          connection,
          workerConnection: () => createRedis(process.env.REDIS_URL!, 'worker'),
          prefix: uniqueQueuePrefix(),
          definitions,
          logger,
        });
        return {
          queue,
          close: async () => {
            await queue.close();
            await connection.quit();
          },
        };
      },
    ]);
  } else {
    it('BullMQ (skipped: REDIS_URL is not set, embedded mode)');
  }

  for (const [label, make] of adapters) {
    it(`${label}: dispatches each message once, even when relayed twice`, async () => {
      const { queue, close } = make();
      const seen: JobContext[] = [];
      const processor: JobProcessor = { queue: 'echo', process: async (job) => void seen.push(job) };
      queue.startWorkers([processor]);
      const relay = new OutboxRelay(database.db, queue, logger, { pollMs: 50, batchSize: 10 });
      const tag = `${label}-${Date.now()}`;
      await database.db.transaction((trx) =>
        writeOutbox(
          trx,
          Array.from({ length: 15 }, (_, i) => ({ queue: 'echo', name: 'echo', data: { i, tag }, jobId: `${tag}-${i}` })),
        ),
      );
      assert.equal(await relay.dispatchPending(), 10);
      // A crash between add and mark would re-add; the job id makes that a no-op.
      await database
        .db('hi_outbox')
        .whereIn('job_id', [`${tag}-0`, `${tag}-1`])
        .update({ dispatched_at: null });
      const stop = relay.start();
      await until(() => seen.length >= 15);
      await new Promise((r) => setTimeout(r, 200));
      await stop();
      assert.equal(seen.length, 15);
      assert.deepEqual(
        seen.map((j) => (j.data as { i: number }).i).sort((a, b) => a - b),
        Array.from({ length: 15 }, (_, i) => i),
      );
      const pending = await database.db('hi_outbox').whereNull('dispatched_at').count<{ c: string }[]>('* as c');
      assert.equal(Number(pending[0]!.c), 0);
      await close();
    });
  }

  for (const [label, make] of adapters) {
    it(`${label}: one batch per queue; a queue that refuses its batch keeps only its own rows pending`, async () => {
      const { queue, close } = make();
      const seen: JobContext[] = [];
      queue.startWorkers([{ queue: 'echo', process: async (job) => void seen.push(job) }]);
      const relay = new OutboxRelay(database.db, queue, logger, { pollMs: 50, batchSize: 100 });
      const tag = `refused-${label}-${Date.now()}`;
      await database.db.transaction((trx) =>
        writeOutbox(trx, [
          ...Array.from({ length: 5 }, (_, i) => ({ queue: 'echo', name: 'echo', data: { i, tag }, jobId: `${tag}-echo-${i}` })),
          { queue: 'unknown', name: 'lost', data: { tag }, jobId: `${tag}-unknown` },
        ]),
      );
      assert.equal(await relay.dispatchPending(), 5);
      await until(() => seen.filter((j) => (j.data as { tag: string }).tag === tag).length >= 5);
      const pending = await database.db('hi_outbox').where('job_id', 'like', `${tag}-%`).whereNull('dispatched_at').select('job_id', 'attempts', 'last_error');
      assert.deepEqual(
        pending.map((r) => r.job_id),
        [`${tag}-unknown`],
      );
      assert.equal(pending[0].attempts, 1);
      assert.match(pending[0].last_error, /unknown/i);
      // Not in the way of later passes.
      await database.db('hi_outbox').where('job_id', `${tag}-unknown`).del();
      await close();
    });
  }

  it('prunes dispatched rows past their retention, and never a pending one', async () => {
    const now = Date.now();
    const day = 86_400_000;
    const tag = `prune-${now}`;
    const rows = [
      { job_id: `${tag}-old`, created_at: new Date(now - 9 * day), dispatched_at: new Date(now - 8 * day) },
      { job_id: `${tag}-recent`, created_at: new Date(now - 2 * day), dispatched_at: new Date(now - day) },
      { job_id: `${tag}-pending`, created_at: new Date(now - 30 * day), dispatched_at: null },
    ];
    await database.db('hi_outbox').insert(rows.map((r) => ({ queue: 'echo', name: 'echo', data: JSON.stringify({}), ...r })));
    const relay = new OutboxRelay(database.db, new InlineJobQueue(definitions, logger), logger, { pollMs: 50, batchSize: 10, retentionMs: 7 * day });
    assert.ok((await relay.prune(now)) >= 1);
    const left = (await database.db('hi_outbox').where('job_id', 'like', `${tag}-%`).select('job_id')).map((r) => r.job_id).sort();
    assert.deepEqual(left, [`${tag}-pending`, `${tag}-recent`]);
  });
});
