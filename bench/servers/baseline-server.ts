/**
 * The baseline the apply endpoint is measured against: a bare Express server doing what
 * any "accept an application" endpoint must do at minimum, one INSERT and one BullMQ add
 * per request, on the same PostgreSQL and Redis.
 */
import { randomUUID } from 'node:crypto';
import express from 'express';
import knex from 'knex';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';

async function main(): Promise<void> {
  const db = knex({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 2, max: 10 } });
  await db.schema.dropTableIfExists('bench_baseline');
  await db.schema.createTable('bench_baseline', (t) => {
    t.text('id').primary();
    t.jsonb('body').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  const connection = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
  const queue = new Queue('bench-baseline', { connection, prefix: '{bench-baseline}' });
  const app = express();
  app.use(express.json());
  app.post('/apply', async (req, res) => {
    const id = randomUUID();
    await db('bench_baseline').insert({ id, body: JSON.stringify(req.body) });
    await queue.add('apply', { id }, { jobId: id, removeOnComplete: true });
    res.status(201).json({ id, status: 'submitted' });
  });
  const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
  process.on('SIGTERM', async () => {
    server.close();
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
    await connection.quit();
    await db.schema.dropTableIfExists('bench_baseline');
    await db.destroy();
    process.exit(0);
  });
}

void main();
