import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import type { Database } from './database';

/** The plugin's migrations, namespaced so they never mix with the host's. */
export const PLUGIN_MIGRATIONS: Knex.MigratorConfig = {
  directory: path.resolve(__dirname, '../../migrations'),
  tableName: 'hi_knex_migrations',
  loadExtensions: ['.js'],
};

/**
 * Applies what is pending. When every migration file is already recorded (every start
 * after the first), that is one SELECT: knex's own check takes its lock table and a
 * transaction, a few round trips more on each start.
 */
export async function migrateLatest(db: Database, config: Knex.MigratorConfig = PLUGIN_MIGRATIONS): Promise<string[]> {
  if (await allApplied(db, config)) return [];
  const [, applied] = (await db.migrate.latest(config)) as [number, string[]];
  return applied;
}

export async function migrateRollbackAll(db: Database, config: Knex.MigratorConfig = PLUGIN_MIGRATIONS): Promise<string[]> {
  const [, reverted] = (await db.migrate.rollback(config, true)) as [number, string[]];
  return reverted;
}

async function allApplied(db: Database, config: Knex.MigratorConfig): Promise<boolean> {
  const extensions = config.loadExtensions ?? ['.js'];
  let files: string[];
  try {
    files = readdirSync(String(config.directory)).filter((f) => extensions.some((e) => f.endsWith(e)) && !f.endsWith('.d.ts'));
  } catch {
    return false;
  }
  try {
    const rows: Array<{ name: string }> = await db(config.tableName ?? 'knex_migrations').select('name');
    const applied = new Set(rows.map((r) => r.name));
    return files.every((f) => applied.has(f));
  } catch {
    return false; // no migrations table yet
  }
}
