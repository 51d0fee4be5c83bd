/**
 * The package's public surface (`require('hiring-integrations')` and `import … from
 * 'hiring-integrations'`): what a host needs to embed the plugin, and nothing internal.
 *
 *   activate(host, {role})      the plugin in this process: routers (api), workers (worker) or both
 *   defineConfig({...})         the configuration from an object (environment variables are the standalone host's way)
 *   migrate(knex)               the plugin's migrations on the host's knex, in their own table
 *   HOST_CONTRACT_VERSION       what a host states it implements
 *   isListingId(id)             the documented limits of a host's listing ids
 *
 * The types of the host contract come with it. Everything else in dist/ may change
 * without notice.
 */
import type { Knex } from 'knex';
import type { ActivatePlugin } from './host/contract';
import { activate as activatePlugin } from './plugin';
import { migrateLatest, migrateRollbackAll, PLUGIN_MIGRATIONS } from './platform/database/migrator';

export type {
  ActivateOptions,
  ActivatePlugin,
  Disposer,
  HookBus,
  HookEvent,
  HookHandlerInfo,
  HookHandlerOutcome,
  HookListener,
  HookResult,
  HostHttp,
  HostOrganizations,
  HttpRouter,
  Listing,
  ListingQuestion,
  ListingsDirectory,
  Logger,
  MountedRouterInfo,
  OfferedRouter,
  OrganizationInfo,
  Pipeline,
  PipelineApplication,
  PipelineCredential,
  PluginHost,
  PluginInstance,
  PluginRole,
  QueueInfo,
  QuestionType,
  ReadinessReport,
} from './host/contract';
export type { Config, ProfileProviderConfig } from './kernel/config';
export type { PluginConfigOptions } from './host/config-builder';
export { HOST_CONTRACT_VERSION } from './host/contract';
export { ConfigError } from './kernel/config';
export { defineConfig, STANDALONE_ONLY_SETTINGS } from './host/config-builder';
export { isListingId, LISTING_ID_MAX_LENGTH } from './features/listings/domain/listing-id';

/** Activates the plugin for a host; see PluginHost and ActivateOptions. */
export const activate: ActivatePlugin = activatePlugin;

/** The plugin's migrations: compiled files only (knex would also load .d.ts), state in their own table. */
export const MIGRATIONS: Readonly<{ directory: string; tableName: string; loadExtensions: readonly string[] }> = Object.freeze({
  directory: PLUGIN_MIGRATIONS.directory as string,
  tableName: PLUGIN_MIGRATIONS.tableName as string,
  loadExtensions: Object.freeze([...(PLUGIN_MIGRATIONS.loadExtensions ?? ['.js'])]),
});

/**
 * Applies the plugin's pending migrations on the host's knex (PostgreSQL): tables
 * prefixed `hi_`, state in `hi_knex_migrations`, nothing of the host's touched. Run it
 * once per deploy, before the api and worker processes start. Returns the applied names.
 */
export async function migrate(knex: Knex): Promise<string[]> {
  return migrateLatest(knex, { ...MIGRATIONS, loadExtensions: [...MIGRATIONS.loadExtensions] });
}

/** Reverts every migration of the plugin (drops its tables). */
export async function rollbackMigrations(knex: Knex): Promise<string[]> {
  return migrateRollbackAll(knex, { ...MIGRATIONS, loadExtensions: [...MIGRATIONS.loadExtensions] });
}
