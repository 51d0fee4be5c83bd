/** The operator CLI, run as a real process, on a database of its own. */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../src/platform/manifest/manifest';
import { runCli } from '../helpers/cli';
import { testEnv } from '../helpers/config';
import { createTestDatabase, type TestDatabase } from '../helpers/database';

const BIN = path.join(PACKAGE_ROOT, 'bin/hiring-integrations.js');

describe('operator CLI', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let env: Record<string, string | undefined>;

  const cli = (...args: string[]) => runCli(args, env);

  before(async () => {
    database = await createTestDatabase();
    // The CLI opens its own connection: on PGlite that means a folder, not memory.
    await database.db.destroy().catch(() => undefined);
    env = testEnv({ DATABASE_URL: database.url });
  });
  after(async () => {
    if (database.url) await database.drop();
  });

  it('migrate applies the migrations', () => {
    const result = cli('migrate');
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /migrations applied/);
  });

  it('org create --json prints the organization id and its API key', () => {
    const result = cli('org', 'create', '--name', 'Acme', '--json');
    assert.equal(result.code, 0, result.stderr);
    const out = JSON.parse(result.stdout);
    assert.match(out.organization_id, /^org_/);
    assert.match(out.api_key, /^hik_/);
  });

  it('key rotate issues a new key; key revoke takes a prefix or a key', () => {
    const { organization_id, api_key } = JSON.parse(cli('org', 'create', '--name', 'Rotor', '--json').stdout);
    const rotated = cli('key', 'rotate', '--org', organization_id, '--json');
    assert.equal(rotated.code, 0, rotated.stderr);
    const out = JSON.parse(rotated.stdout);
    assert.notEqual(out.api_key, api_key);
    assert.ok(Date.parse(out.previous_keys_expire_at) > Date.now());
    const revoked = cli('key', 'revoke', '--key', api_key.slice(0, 16));
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.match(revoked.stdout, /revoked/);
    const again = cli('key', 'revoke', '--key', api_key);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /No such API key/);
  });

  it('listing create validates its questions and prints the listing id', () => {
    const { organization_id } = JSON.parse(cli('org', 'create', '--name', 'Lister', '--json').stdout);
    const questions = JSON.stringify([
      { key: 'years', label: 'Years?', type: 'number', required: true },
      { key: 'shift', label: 'Shift', type: 'select', required: false, options: ['day', 'night'] },
    ]);
    const created = cli('listing', 'create', '--org', organization_id, '--title', 'Nurse', '--questions', questions, '--json');
    assert.equal(created.code, 0, created.stderr);
    assert.match(JSON.parse(created.stdout).listing_id, /^listing_/);

    const bad = cli('listing', 'create', '--org', organization_id, '--title', 'Nurse', '--questions', '[{"key":"x","label":"X","type":"select"}]');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /options/);
    const notJson = cli('listing', 'create', '--org', organization_id, '--title', 'Nurse', '--questions', '{nope');
    assert.equal(notJson.code, 2);
    assert.match(notJson.stderr, /JSON/);
    const unknownOrg = cli('listing', 'create', '--org', 'org_missing', '--title', 'Nurse', '--questions', '[]');
    assert.equal(unknownOrg.code, 1);
    assert.match(unknownOrg.stderr, /No such organization/);
  });

  it('bad arguments: a clear message, usage, exit 2, no stack trace', () => {
    for (const args of [['bogus'], ['org', 'create'], ['org', 'create', '--name'], ['key', 'rotate', '--org', 'x', '--color', 'red']]) {
      const result = cli(...args);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, /^error: /);
      assert.match(result.stderr, /Usage: hiring-integrations/);
      assert.doesNotMatch(result.stderr, /\n\s+at /);
    }
  });

  it('a bad setting is named and exits 2', () => {
    const result = spawnSync(process.execPath, [BIN, 'migrate'], { env: { ...env, PORT: 'x' } as NodeJS.ProcessEnv, encoding: 'utf8' });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /PORT/);
  });

  it('help prints the usage', () => {
    const result = cli('--help');
    assert.equal(result.code, 0);
    assert.match(result.stdout, /org create --name <name> \[--json\]/);
  });
});
