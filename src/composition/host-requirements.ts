/** What an embedding host must give for the role it asks for: a missing piece stops activation, naming it. */
import { ConfigError } from '../kernel/config';
import type { PluginHost, PluginRole } from '../host/contract';

export function checkHostRequirements(host: PluginHost, role: PluginRole): void {
  const { config } = host;
  if (!Buffer.isBuffer(config.secretKey) || config.secretKey.length < 32) {
    throw new ConfigError('SECRET_KEY', 'must be at least 32 bytes (build the configuration with defineConfig)');
  }
  if (role !== 'all' && !config.redisUrl) {
    throw new ConfigError('REDIS_URL', `is required for the ${role} role: without Redis, jobs run in the process that enqueues them (role "all")`);
  }
  if (role !== 'worker' && !host.http) throw new Error(`The ${role} role mounts routers: the host must provide http.mount(path, router)`);
  if (!host.database && !config.databaseUrl) {
    // Only the standalone host may fall back to an embedded database folder, and it always passes its knex.
    throw new ConfigError('DATABASE_URL', 'is required: pass databaseUrl in the configuration, or your knex instance as host.database');
  }
}

/** A router's full path on the host: the mount path, then the manifest's path (`/` is the mount path itself). */
export function hostPath(mountPath: string, path: string): string {
  return mountPath && path === '/' ? mountPath : `${mountPath}${path}`;
}
