import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import { isEmbedded, type Database } from './database';

/** The plugin's migrations, namespaced so they never mix with the host's. */
export const PLUGIN_MIGRATIONS: Knex.MigratorConfig = {
  directory: path.resolve(__dirname, '../../../migrations'),
  tableName: 'hi_knex_migrations',
  loadExtensions: ['.js'],
};

/**
 * Applies what is pending. When every migration file is already recorded (every start
 * after the first), that is one SELECT: knex's own check takes its lock table and a
 * transaction, a few round trips more on each start. Otherwise one process at a time (see
 * exclusively), and each looks again once it has the lock: the one before may have done it.
 */
export async function migrateLatest(db: Database, config: Knex.MigratorConfig = PLUGIN_MIGRATIONS): Promise<string[]> {
  if (await allApplied(db, config)) return [];
  return exclusively(db, `hiring-integrations:migrations:${config.tableName ?? 'knex_migrations'}`, async () => {
    if (await allApplied(db, config)) return [];
    const [, applied] = (await db.migrate.latest(config)) as [number, string[]];
    return applied;
  });
}

interface RawConnections {
  acquireRawConnection(): Promise<{ query(sql: string, values: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }> }>;
  destroyRawConnection(connection: unknown): Promise<void>;
}

/**
 * Processes started together on a new database (two API replicas) would race to create
 * knex's migrations table and lock row: the loser fails, or leaves two lock rows that no
 * process can ever take again. On PostgreSQL, a session advisory lock on a connection of
 * its own (outside the pool, so a pool of one still migrates) makes them take turns; it is
 * released when the work ends, and by the server if the process dies holding it.
 */
/** How often a process waiting for another's migrations asks for the lock again. */
const LOCK_POLL_MS = 200;

async function exclusively<T>(db: Database, key: string, work: () => Promise<T>): Promise<T> {
  if (isEmbedded(db)) return work(); // one process per PGlite folder (the embedded lock)
  const client = db.client as unknown as RawConnections;
  const connection = await client.acquireRawConnection();
  try {
    // Polled rather than waited for with pg_advisory_lock: a session blocked inside a statement
    // holds a snapshot, a migration building an index CONCURRENTLY waits for every snapshot,
    // and the blocked sessions wait for its lock, a deadlock PostgreSQL does not detect.
    while (!(await connection.query('select pg_try_advisory_lock(hashtextextended($1, 0)) as locked', [key])).rows[0]?.locked) {
      await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
    }
    return await work();
  } finally {
    await client.destroyRawConnection(connection);
  }
}

export async function migrateRollbackAll(db: Database, config: Knex.MigratorConfig = PLUGIN_MIGRATIONS): Promise<string[]> {
  const [, reverted] = (await db.migrate.rollback(config, true)) as [number, string[]];
  return reverted;
}

/**
 * The migration files not yet recorded (all of them before the first run). Reads the table
 * without knex's `migrate.list`, which creates the tables and their lock row, outside any
 * lock: two processes doing that at once is the race `exclusively` prevents.
 */
export async function pendingMigrations(db: Database, config: Knex.MigratorConfig = PLUGIN_MIGRATIONS): Promise<string[]> {
  const extensions = config.loadExtensions ?? ['.js'];
  const files = readdirSync(String(config.directory)).filter((f) => extensions.some((e) => f.endsWith(e)) && !f.endsWith('.d.ts'));
  let applied: Set<string>;
  try {
    const rows: Array<{ name: string }> = await db(config.tableName ?? 'knex_migrations').select('name');
    applied = new Set(rows.map((r) => r.name));
  } catch (error) {
    if ((error as { code?: string }).code !== '42P01') throw error; // undefined_table: nothing applied yet
    applied = new Set();
  }
  return files.filter((f) => !applied.has(f)).sort();
}

async function allApplied(db: Database, config: Knex.MigratorConfig): Promise<boolean> {
  try {
    return (await pendingMigrations(db, config)).length === 0;
  } catch {
    return false; // let knex's own run say what is wrong
  }
}
