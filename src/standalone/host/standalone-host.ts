/**
 * The reference host: what `npm start`, the docker image and the tests run. It owns the
 * Express app, the database, a listings directory and a pipeline, reads the manifest,
 * runs migrations, and activates the plugin through the same contract any ATS would use.
 */
import 'reflect-metadata';
import path from 'node:path';
import express, { Router, type Express } from 'express';
import type { Config } from '../../kernel/config';
import type { Disposer } from '../../kernel/disposer';
import type { Logger } from '../../kernel/logger';
import { HOST_CONTRACT_VERSION, type PluginHost, type PluginInstance } from '../../host/contract';
import { errorHandler, notFoundHandler } from '../../platform/http/errors';
import { requestId } from '../../platform/http/request-id';
import { loadManifest, PACKAGE_ROOT } from '../../platform/manifest/manifest';
import { activate } from '../../plugin';
import { createDatabase, type Database } from '../../platform/database/database';
import { migrateLatest, pendingMigrations } from '../../platform/database/migrator';
import { InProcessHookBus } from './hook-bus';
import { hookEndpoint } from './hook-endpoint';
import { ListingsStore } from './listings-store';
import { PipelineStore } from './pipeline-store';

export const HOST_MIGRATIONS = {
  directory: path.resolve(__dirname, 'host-migrations'),
  tableName: 'host_knex_migrations',
  loadExtensions: ['.js'],
};

export interface StandaloneHost {
  app: Express;
  config: Config;
  db: Database;
  plugin: PluginInstance;
  listings: ListingsStore;
  pipeline: PipelineStore;
  hooks: InProcessHookBus;
  logger: Logger;
  close(): Promise<void>;
}

export interface StandaloneOptions {
  config: Config;
  logger: Logger;
  /** Reuse a database (tests); otherwise one is created from config and closed on close(). */
  db?: Database;
  /** Run job processors in this process. Always true in embedded mode (no Redis). */
  runWorkers?: boolean;
  /** Extra host routes mounted before the plugin's (demo pages, operator hook endpoint). */
  hostRoutes?: (host: Omit<StandaloneHost, 'close'>) => Router[];
}

/**
 * Runs the plugin's migrations (the directory its manifest names) and, unless told not to,
 * the host's own; returns how many were applied. `progress` hears about pending work before
 * it starts (a fresh database takes seconds) and when it is done.
 */
export async function migrateAll(
  db: Database,
  options: { hostTables?: boolean; progress?: (message: string, fields: Record<string, unknown>) => void } = {},
): Promise<number> {
  const { progress } = options;
  const manifest = loadManifest();
  const sets = [
    {
      directory: path.join(PACKAGE_ROOT, manifest.migrations.directory),
      tableName: manifest.migrations.tableName,
      loadExtensions: manifest.migrations.loadExtensions ?? ['.js'],
    },
    ...(options.hostTables === false ? [] : [HOST_MIGRATIONS]),
  ];
  const started = Date.now();
  let pending = 0;
  if (progress) for (const set of sets) pending += (await pendingMigrations(db, set)).length;
  if (pending > 0) progress?.(`applying ${pending} database migrations…`, { pending });
  let applied = 0;
  for (const set of sets) applied += (await migrateLatest(db, set)).length;
  if (applied > 0) progress?.(`applied ${applied} database migrations`, { applied, durationMs: Date.now() - started });
  return applied;
}

export async function createStandaloneHost(options: StandaloneOptions): Promise<StandaloneHost> {
  const { config, logger } = options;
  const ownsDb = !options.db;
  const db = options.db ?? createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: config.databasePoolMax, logger });
  await migrateAll(db, { progress: (message, fields) => logger.info(fields, message) });

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.use(requestId);
  const mounts = Router();

  const listings = new ListingsStore(db);
  const pipeline = new PipelineStore(db);
  const hooks = new InProcessHookBus(logger);
  const pluginHost: PluginHost = {
    contractVersion: HOST_CONTRACT_VERSION,
    config,
    logger,
    hooks,
    listings,
    managedListings: listings,
    pipeline,
    database: db,
    http: {
      mount(mountPath, router): Disposer {
        mounts.use(mountPath, router);
        const layer = mounts.stack[mounts.stack.length - 1];
        return () => {
          const index = mounts.stack.indexOf(layer!);
          if (index >= 0) mounts.stack.splice(index, 1);
        };
      },
    },
  };
  // The standalone host keeps /healthz, /readyz, /metrics and /operator/jobs where they always were.
  const plugin = await activate(pluginHost, { operations: 'mount' });
  const partial = { app, config, db, plugin, listings, pipeline, hooks, logger };
  // The plugin's routers first: the API's requests are the ones to answer fastest, and
  // the host's own routes (below) share no path with them.
  app.use(mounts);
  // The operator's hook endpoint, POST /host/v1/hooks/{hook_name} (src/standalone/host/hook-endpoint.ts).
  app.use(hookEndpoint(partial));
  for (const router of options.hostRoutes?.(partial) ?? []) app.use(router);
  app.use(notFoundHandler);
  app.use(errorHandler(logger));

  if (options.runWorkers || !config.redisUrl) await plugin.startWorkers();

  return {
    ...partial,
    async close() {
      await plugin.dispose();
      if (ownsDb) await db.destroy();
    },
  };
}
