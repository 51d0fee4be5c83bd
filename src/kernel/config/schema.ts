/**
 * The one configuration schema: every setting the plugin reads, in groups. Parsing, the
 * manifest's `config`, defineConfig's option types and docs/configuration.md all come from
 * here (`npm run build` regenerates the last three; a test fails when they are stale).
 */
import { z } from 'zod';
import { ConfigError } from './config-error';
import { SETTING_META, type SettingKind } from './setting-kinds';
import { BACKGROUND_WORK } from './settings/background-work';
import { CONNECTIONS } from './settings/connections';
import { PROFILE_PROVIDER } from './settings/profile-provider';
import { SECURITY } from './settings/security';
import { SERVER } from './settings/server';
import { STORAGE } from './settings/storage';
import { WEBHOOKS } from './settings/webhooks';

/** In the order the docs present them. */
export const SETTING_GROUPS = [SERVER, STORAGE, SECURITY, PROFILE_PROVIDER, WEBHOOKS, BACKGROUND_WORK, CONNECTIONS] as const;

export const settingsSchema = z.object({
  ...SERVER.settings,
  ...STORAGE.settings,
  ...SECURITY.settings,
  ...PROFILE_PROVIDER.settings,
  ...WEBHOOKS.settings,
  ...BACKGROUND_WORK.settings,
  ...CONNECTIONS.settings,
});

export type SettingName = keyof typeof settingsSchema.shape;
export type Settings = z.output<typeof settingsSchema>;

/** One setting as the manifest lists it (and hosts read it). */
export interface SettingSpec {
  env: string;
  type: SettingKind;
  default?: string;
  secret: boolean;
  description: string;
  values?: readonly string[];
  minimum?: number;
  maximum?: number;
  schemes?: readonly string[];
  standaloneOnly?: boolean;
}

function spec(env: string, schema: z.ZodType): SettingSpec {
  const meta = SETTING_META.get(schema);
  if (!meta) throw new Error(`${env} is not declared with a setting builder (setting-kinds.ts)`);
  return {
    env,
    type: meta.kind,
    ...(meta.values && { values: meta.values }),
    ...(meta.default !== undefined && { default: meta.default }),
    secret: meta.secret === true,
    description: meta.description,
    ...(meta.minimum !== undefined && { minimum: meta.minimum }),
    ...(meta.maximum !== undefined && { maximum: meta.maximum }),
    ...(meta.schemes && { schemes: meta.schemes }),
    ...(meta.standaloneOnly && { standaloneOnly: true }),
  };
}

/** Every setting, in schema order. */
export const SETTINGS: readonly SettingSpec[] = Object.entries(settingsSchema.shape).map(([env, schema]) => spec(env, schema));

/** Read only by the standalone host (its HTTP server, process signals, embedded data folder): not options of defineConfig. */
export const STANDALONE_ONLY_SETTINGS: readonly string[] = SETTINGS.filter((s) => s.standaloneOnly).map((s) => s.env);

/** The settings' text from an environment: trimmed, blank as unset, other variables ignored. */
function settingText(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const text: Record<string, string | undefined> = {};
  for (const name of Object.keys(settingsSchema.shape)) {
    const value = env[name]?.trim();
    text[name] = value === '' ? undefined : value;
  }
  return text;
}

/** Parses every setting; throws ConfigError naming the first bad one (in schema order). */
export function parseSettings(env: Record<string, string | undefined>): Settings {
  const result = settingsSchema.safeParse(settingText(env));
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new ConfigError(String(issue.path[0] ?? '(settings)'), issue.message);
}
