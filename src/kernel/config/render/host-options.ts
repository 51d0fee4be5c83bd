/** Writes defineConfig's option types (src/host/config-options.ts) from the schema: one documented property per setting a host may pass. */
import { optionName } from '../option-names';
import { SETTINGS, type SettingSpec } from '../schema';

export const HOST_OPTIONS_FILE = 'src/host/config-options.ts';

function optionType(setting: SettingSpec): string {
  if (setting.values) return setting.values.map((v) => `'${v}'`).join(' | ');
  if (setting.type === 'integer') return 'number';
  if (setting.type === 'boolean') return 'boolean';
  return 'string';
}

function comment(setting: SettingSpec): string {
  const facts = [`\`${setting.env}\``, setting.default === undefined ? undefined : `default \`${setting.default}\``, setting.secret ? 'secret' : undefined];
  const lines = [setting.description.replace(/\*\//g, '*\\/'), '', facts.filter(Boolean).join(', ') + '.'];
  return `  /**\n${lines.map((line) => `   *${line ? ` ${line}` : ''}`).join('\n')}\n   */`;
}

export function renderHostOptions(settings: readonly SettingSpec[] = SETTINGS): string {
  const properties = settings.filter((s) => !s.standaloneOnly).map((s) => `${comment(s)}\n  ${optionName(s.env)}?: ${optionType(s)};`);
  return `/**
 * GENERATED from the configuration schema (src/kernel/config) by \`npm run build\`: do not edit.
 * defineConfig's options: every setting an embedding host may pass, named after its
 * variable in camel case, typed as the schema parses it.
 */
export interface SettingOptions {
${properties.join('\n\n')}
}
`;
}
