/**
 * The baseline for profile-import throughput: the least an import job can do, in a bare
 * BullMQ worker at the same concurrency as the product's: one SELECT (the candidate's
 * access token), one HTTP GET to the same sandbox profile endpoint (Node's fetch, which
 * keeps connections alive), one INSERT … ON CONFLICT (the profile as received). No
 * decryption, no validation, no mapping, no refresh handling.
 */
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import knex from 'knex';

interface MinimalImportJob {
  organization_id: string;
  profile_user_id: string;
}

async function main(): Promise<void> {
  const concurrency = Number(process.env.CONCURRENCY);
  const db = knex({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 2, max: 10 } });
  const profileUrl = process.env.PROFILE_URL!;
  const connection = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
  const worker = new Worker<MinimalImportJob>(
    process.env.QUEUE_NAME!,
    async (job) => {
      const { organization_id, profile_user_id } = job.data;
      const row = await db('bench_minimal_tokens').where({ organization_id, profile_user_id }).first('access_token');
      if (!row) throw new Error('no token');
      const response = await fetch(profileUrl, { headers: { authorization: `Bearer ${row.access_token}`, accept: 'application/json' } });
      if (!response.ok) throw new Error(`profile answered ${response.status}`);
      const profile = await response.json();
      await db('bench_minimal_snapshots')
        .insert({ organization_id, profile_user_id, profile: JSON.stringify(profile), imported_at: new Date() })
        .onConflict(['organization_id', 'profile_user_id'])
        .merge();
    },
    { connection, prefix: process.env.QUEUE_PREFIX!, concurrency },
  );
  await worker.waitUntilReady();
  process.send?.('ready');
  process.on('SIGTERM', async () => {
    await worker.close();
    await connection.quit();
    await db.destroy();
    process.exit(0);
  });
}

void main();
