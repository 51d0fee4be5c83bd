/**
 * A database of its own for each test file: a fresh PostgreSQL database on the server
 * DATABASE_URL points at (CI), or an in-memory PGlite (embedded runs). Dropped after.
 */
import knex from 'knex';
import { randomToken } from '../../src/kernel/ids';
import { createDatabase, type Database } from '../../src/platform/database/database';
import { testLogger } from './log-capture';

export interface TestDatabase {
  db: Database;
  /** Connection string of the test database; undefined on PGlite. */
  url: string | undefined;
  drop(): Promise<void>;
}

export const usingPostgres = () => Boolean(process.env.DATABASE_URL);

/** `serverUrl`: another server than DATABASE_URL's (a fault test's own). */
export async function createTestDatabase(serverUrl = process.env.DATABASE_URL): Promise<TestDatabase> {
  if (!serverUrl) {
    const db = createDatabase({ dataDir: 'memory' });
    return { db, url: undefined, drop: () => db.destroy() };
  }
  const name = `hi_test_${randomToken(10).toLowerCase()}`;
  const admin = knex({ client: 'pg', connection: serverUrl, pool: { min: 0, max: 1 } });
  await admin.raw(`create database ${name}`);
  await admin.destroy();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = createDatabase({ databaseUrl: url.toString(), poolMax: 10, logger: testLogger() });
  return {
    db,
    url: url.toString(),
    async drop() {
      await db.destroy();
      const cleanup = knex({ client: 'pg', connection: serverUrl, pool: { min: 0, max: 1 } });
      await cleanup.raw(`drop database if exists ${name} with (force)`);
      await cleanup.destroy();
    },
  };
}
