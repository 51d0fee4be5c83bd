/** A fresh PostgreSQL database per benchmark run, dropped afterwards. */
import { randomBytes } from 'node:crypto';
import knex from 'knex';

export async function createBenchDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `hi_bench_${randomBytes(5).toString('hex')}`;
  const admin = knex({ client: 'pg', connection: serverUrl, pool: { min: 0, max: 1 } });
  await admin.raw(`create database ${name}`);
  await admin.destroy();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const cleanup = knex({ client: 'pg', connection: serverUrl, pool: { min: 0, max: 1 } });
      await cleanup.raw(`drop database if exists ${name} with (force)`);
      await cleanup.destroy();
    },
  };
}
