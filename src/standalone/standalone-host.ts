/**
 * The reference host: what `npm start`, the docker image and the tests run. It owns the
 * Express app, the database, a listings directory and a pipeline, reads the manifest,
 * runs migrations, and activates the plugin through the same contract any ATS would use.
 */
import 'reflect-metadata';
import path from 'node:path';
import express, { Router, type Express } from 'express';
import type { Config } from '../config';
import type { Disposer } from '../domain/shared/disposer';
import type { Logger } from '../domain/shared/logger';
import { HOST_CONTRACT_VERSION, type PluginHost, type PluginInstance } from '../host/contract';
import { errorHandler, notFoundHandler } from '../http/errors';
import { requestId } from '../http/request-id';
import { loadManifest, PACKAGE_ROOT } from '../manifest/manifest';
import { activate } from '../plugin';
import { createDatabase, type Database } from '../storage/database';
import { migrateLatest } from '../storage/migrator';
import { InProcessHookBus } from './hook-bus';
import { hookEndpoint } from './hook-endpoint';
import { ListingsStore } from './listings-store';
import { PipelineStore } from './pipeline-store';

export const HOST_MIGRATIONS = {
  directory: path.resolve(__dirname, 'migrations'),
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

/** Runs the plugin's migrations (the directory its manifest names) and the host's own. */
export async function migrateAll(db: Database): Promise<void> {
  const manifest = loadManifest();
  await migrateLatest(db, {
    directory: path.join(PACKAGE_ROOT, 'dist', manifest.migrations.directory),
    tableName: manifest.migrations.tableName,
    loadExtensions: ['.js'],
  });
  await migrateLatest(db, HOST_MIGRATIONS);
}

export async function createStandaloneHost(options: StandaloneOptions): Promise<StandaloneHost> {
  const { config, logger } = options;
  const ownsDb = !options.db;
  const db = options.db ?? createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: config.databasePoolMax, logger });
  await migrateAll(db);

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
  const plugin = await activate(pluginHost);
  const partial = { app, config, db, plugin, listings, pipeline, hooks, logger };
  // The operator's hook endpoint, POST /host/v1/hooks/{hook_name} (src/standalone/hook-endpoint.ts).
  app.use(hookEndpoint(partial));
  for (const router of options.hostRoutes?.(partial) ?? []) app.use(router);
  app.use(mounts);
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
