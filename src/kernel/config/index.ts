/** The configuration: one schema (schema.ts), parsed once at start (loadConfig), errors naming the setting. */
export { ConfigError } from './config-error';
export type { Config, ProfileProviderConfig, TokenAuthMethod, WebhookConfig } from './config-types';
export { loadConfig, type LoadOptions } from './load-config';
export { parseSettings, SETTING_GROUPS, SETTINGS, settingsSchema, STANDALONE_ONLY_SETTINGS, type SettingName, type Settings, type SettingSpec } from './schema';
export type { SettingKind } from './setting-kinds';
