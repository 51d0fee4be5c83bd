/**
 * The schema is the one source: the manifest's `config`, docs/configuration.md and
 * defineConfig's option types are generated from it by `npm run build`. These fail when a
 * setting of the schema is missing from any of them, or when any of them is stale.
 */
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { SETTINGS, type SettingSpec } from '../../src/kernel/config';
import { optionName } from '../../src/kernel/config/option-names';
import { PACKAGE_ROOT } from '../../src/platform/manifest/manifest';

const read = (file: string) => readFileSync(path.join(PACKAGE_ROOT, file), 'utf8');

describe('configuration: what the schema generates', function () {
  this.timeout(120_000);

  it('the generated files are what the build would write now (not stale, not hand-edited)', async () => {
    const { stderr } = await promisify(execFile)(process.execPath, [path.join(PACKAGE_ROOT, 'scripts/generate-config.js'), '--check']).catch(
      (error: { stderr: string }) => assert.fail(error.stderr),
    );
    assert.equal(stderr, '');
  });

  it('the manifest lists exactly the settings of the schema, with their type, default, secrecy and scope', () => {
    const manifest = JSON.parse(read('plugin.manifest.json')) as { config: SettingSpec[] };
    assert.deepEqual(
      manifest.config.map((s) => s.env),
      SETTINGS.map((s) => s.env),
    );
    for (const setting of SETTINGS) {
      const listed = manifest.config.find((s) => s.env === setting.env)!;
      assert.deepEqual(
        [listed.type, listed.default, listed.secret, listed.standaloneOnly === true, listed.values],
        [setting.type, setting.default, setting.secret, setting.standaloneOnly === true, setting.values],
        setting.env,
      );
    }
  });

  it('the docs page has one row per setting, with its option name and default', () => {
    const page = read('docs/configuration.md');
    const rows = page.split('\n').filter((line) => /^\| `[A-Z][A-Z0-9_]*` \|/.test(line));
    assert.deepEqual(rows.map((row) => /^\| `([A-Z0-9_]+)`/.exec(row)![1]).sort(), SETTINGS.map((s) => s.env).sort());
    for (const setting of SETTINGS) {
      const row = rows.find((r) => r.startsWith(`| \`${setting.env}\` |`))!;
      assert.ok(row.includes(setting.standaloneOnly ? '*standalone only*' : `\`${optionName(setting.env)}\``), setting.env);
      if (setting.default !== undefined) assert.ok(row.includes(`\`${setting.default}\``), `${setting.env} default`);
      if (setting.secret) assert.ok(row.includes('**secret**'), `${setting.env} secret`);
    }
  });

  it("defineConfig's option types name every setting a host may pass, and no other", () => {
    const source = read('src/host/config-options.ts');
    const options = [...source.matchAll(/^ {2}([a-zA-Z0-9]+)\?:/gm)].map((m) => m[1]);
    assert.deepEqual(
      options,
      SETTINGS.filter((s) => !s.standaloneOnly).map((s) => optionName(s.env)),
    );
  });
});
