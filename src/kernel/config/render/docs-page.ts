/** Writes docs/configuration.md from the schema: how settings are given, then one table per group. */
import { optionName } from '../option-names';
import { SETTING_GROUPS, SETTINGS, type SettingSpec } from '../schema';

export const DOCS_FILE = 'docs/configuration.md';

const INTRO = `# Configuration

<!-- GENERATED from the configuration schema (src/kernel/config) by \`npm run build\`: do not edit. -->

Every setting is declared once, in the zod schema under \`src/kernel/config/settings/\`. The
build writes this page, the \`config\` list of \`plugin.manifest.json\` and the option types of
\`defineConfig\` from it, and a test fails when any of them is stale.

**How settings are given.**

- The standalone host (\`npm start\`, the \`hiring-integrations\` CLI, the Docker image) reads
  environment variables. The CLI and \`npm start\` first read a \`.env\` file in the working
  directory (Node's \`process.loadEnvFile\`); variables already set in the environment win.
  A blank value counts as unset.
- An embedding host passes the same settings as an object to \`defineConfig\`, each named after
  its variable in camel case (\`REDIS_URL\` → \`redisUrl\`; the *Option* column). \`baseUrl\` and
  \`secretKey\` are required there, nothing is generated into a folder, and settings marked
  *standalone only* are not options (the host runs its own server).

**When a value is wrong** the process does not start: the message names the variable and
what it must be (\`PORT: must be between 0 and 65535, got 70000\`), and the CLI exits with
code 2. \`defineConfig\` throws the same \`ConfigError\` (its \`env\` property names the setting).

**Production** (\`NODE_ENV=production\`) refuses the embedded database (set \`DATABASE_URL\`), a
generated secret (set \`SECRET_KEY\`), a missing \`BASE_URL\`, and the sandbox profile provider
unless \`SANDBOX_PROVIDER_ENABLED=true\`.

**Secrets** (marked *secret*) are never logged; keep them out of files that are committed.
`;

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function typeOf(setting: SettingSpec): string {
  let type: string = setting.type;
  if (setting.values) type = `one of ${setting.values.map((v) => `\`${v}\``).join(', ')}`;
  else if (setting.type === 'integer')
    type = setting.maximum === undefined ? `integer ≥ ${setting.minimum ?? 0}` : `integer ${setting.minimum ?? 0}–${setting.maximum}`;
  else if (setting.schemes) type = `${setting.schemes.join('/')} URL`;
  return setting.secret ? `${type}, **secret**` : type;
}

function row(setting: SettingSpec): string {
  const option = setting.standaloneOnly ? '*standalone only*' : `\`${optionName(setting.env)}\``;
  const fallback = setting.default === undefined ? '—' : `\`${setting.default}\``;
  return `| \`${setting.env}\` | ${option} | ${cell(typeOf(setting))} | ${cell(fallback)} | ${cell(setting.description)} |`;
}

export function renderDocsPage(settings: readonly SettingSpec[] = SETTINGS): string {
  const byName = new Map(settings.map((s) => [s.env, s]));
  const sections = SETTING_GROUPS.map((group) => {
    const rows = Object.keys(group.settings).map((env) => row(byName.get(env)!));
    return `## ${group.title}

${group.intro}

| Variable | Option | Type | Default | Meaning |
| --- | --- | --- | --- | --- |
${rows.join('\n')}
`;
  });
  return [INTRO, ...sections].join('\n');
}
