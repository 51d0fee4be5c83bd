import path from 'node:path';
import type { Knex } from 'knex';
import type { Database } from './database';

/** The plugin's migrations, namespaced so they never mix with the host's. */
export const PLUGIN_MIGRATIONS: Knex.MigratorConfig = {
  directory: path.resolve(__dirname, '../../migrations'),
  tableName: 'hi_knex_migrations',
  loadExtensions: ['.js'],
};

export async function migrateLatest(db: Database, config: Knex.MigratorConfig = PLUGIN_MIGRATIONS): Promise<string[]> {
  const [, applied] = (await db.migrate.latest(config)) as [number, string[]];
  return applied;
}

export async function migrateRollbackAll(db: Database, config: Knex.MigratorConfig = PLUGIN_MIGRATIONS): Promise<string[]> {
  const [, reverted] = (await db.migrate.rollback(config, true)) as [number, string[]];
  return reverted;
}
