/**
 * Configuration for an embedding host, from an object instead of environment variables.
 * Every plugin setting is an option named after its variable in camel case (`SECRET_KEY` →
 * `secretKey`, `REDIS_URL` → `redisUrl`; the types in ./config-options.ts are generated from
 * the schema), parsed and validated by the same schema as the standalone host's environment,
 * so a bad value throws the same ConfigError naming the setting. Settings only the
 * standalone host reads are left out. Unlike the standalone host, nothing is generated or
 * written: `secretKey` is required.
 */
import { ConfigError, loadConfig, SETTINGS, STANDALONE_ONLY_SETTINGS, type Config } from '../kernel/config';
import { optionName } from '../kernel/config/option-names';
import type { SettingOptions } from './config-options';

export { STANDALONE_ONLY_SETTINGS };

export type PluginConfigOptions = Omit<SettingOptions, 'baseUrl' | 'secretKey'> & {
  /** The host's public base URL (scheme, host, port), e.g. `https://ats.example.com`. */
  baseUrl: string;
  /**
   * Where the host mounts the plugin (`/careers/hi`), '' for its root. Together with
   * baseUrl it makes every URL the plugin builds: OAuth redirect URIs, cookie paths, the
   * widget's API base, OpenAPI `servers`. The host must pass the same path to every
   * `http.mount` call (see PluginHost.http).
   */
  mountPath?: string;
  /** 32+ bytes, hex or base64 (or the bytes); the same in every process of the installation. */
  secretKey: string | Buffer;
};

/** option name → variable name, for every setting a host may pass. */
const OPTION_TO_ENV = new Map<string, string>(SETTINGS.filter((s) => !s.standaloneOnly).map((s) => [optionName(s.env), s.env]));

/** Builds the plugin's configuration from an object; throws ConfigError naming the first bad setting. */
export function defineConfig(options: PluginConfigOptions): Config {
  const env: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(options)) {
    if (key === 'mountPath' || value === undefined) continue;
    const name = OPTION_TO_ENV.get(key);
    if (!name) throw new ConfigError(key, `is not a setting of the plugin; known: mountPath, ${[...OPTION_TO_ENV.keys()].join(', ')}`);
    env[name] = Buffer.isBuffer(value) ? value.toString('hex') : String(value);
  }
  if (!env.BASE_URL) throw new ConfigError('BASE_URL', 'is required: pass baseUrl, the public URL the host serves (e.g. https://ats.example.com)');
  return loadConfig(env, { mountPath: options.mountPath ?? '', embedding: true });
}
