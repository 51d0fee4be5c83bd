/** `catalog sync` as a real process: the shipped catalog by default, an operator's document with --file, refusals. */
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createDatabase } from '../../src/platform/database/database';
import { runCli } from '../helpers/cli';
import { testEnv } from '../helpers/config';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { testDir } from '../helpers/temp-dirs';

describe('licensing: catalog sync CLI', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let env: Record<string, string | undefined>;
  const dir = testDir('catalog');

  const cli = (...args: string[]) => runCli(args, env);
  const query = async <T>(run: (db: ReturnType<typeof createDatabase>) => Promise<T>): Promise<T> => {
    const db = database.url ? createDatabase({ databaseUrl: database.url, poolMax: 1 }) : createDatabase({ dataDir: env.DATA_DIR! });
    try {
      return await run(db);
    } finally {
      await db.destroy();
    }
  };

  before(async () => {
    database = await createTestDatabase();
    await database.db.destroy().catch(() => undefined);
    env = testEnv({ DATABASE_URL: database.url });
  });
  after(async () => {
    if (database.url) await database.drop();
  });

  it('without --file re-syncs the shipped catalog (nothing new)', () => {
    const result = cli('catalog', 'sync', '--json');
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), { version: 1, groups: 13, actions: 35, packages_created: [] });
  });

  it("with --file loads an operator's document: a new action and package, a new price", async () => {
    const file = path.join(dir, 'catalog.v2.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: 2,
        currency: 'USD',
        platform_fee: { amount: 4900, currency: 'USD' },
        groups: [
          {
            key: 'sms',
            name: 'SMS',
            description: 'SMS reminders and two-factor authentication.',
            actions: [
              { key: 'sms.two_factor_auth', name: 'Two-factor authentication', description: 'Codes by SMS.', price: { amount: 1200, currency: 'USD' } },
            ],
          },
          {
            key: 'assessments',
            name: 'Assessments',
            description: 'Skills tests.',
            actions: [{ key: 'assessments.send_test', name: 'Send a test', description: 'A skills test.', price: { amount: 1500, currency: 'USD' } }],
          },
        ],
        packages: [
          {
            slug: 'tech-hiring',
            name: 'Tech hiring',
            description: 'Tests and offers.',
            price: { amount: 2900, currency: 'USD' },
            actions: ['assessments.send_test', 'esign.send_offer'],
          },
        ],
      }),
    );
    const result = cli('catalog', 'sync', '--file', file);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /catalog version 2 synced: 2 groups, 2 actions, new packages: tech-hiring/);
    const [sms, pkg] = await query(async (db) => [
      await db('hi_catalog_actions').where({ key: 'sms.two_factor_auth' }).first(),
      await db('hi_packages').where({ slug: 'tech-hiring' }).first(),
    ]);
    assert.equal(sms.price_amount, 1200);
    assert.equal(pkg.price_amount, 2900);
  });

  it('refuses unreadable, malformed and inconsistent documents with exit 2 and one line', () => {
    const bad = path.join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({
        version: 3,
        currency: 'USD',
        platform_fee: { amount: 4900, currency: 'USD' },
        groups: [],
        packages: [{ slug: 'x', name: 'X', description: '', price: { amount: 1, currency: 'USD' }, actions: ['nope.nothing'] }],
      }),
    );
    const notJson = path.join(dir, 'not.json');
    writeFileSync(notJson, '{');
    for (const [file, message] of [
      [path.join(dir, 'missing.json'), /cannot read/],
      [notJson, /not valid JSON/],
      [bad, /unknown action nope\.nothing/],
    ] as const) {
      const result = cli('catalog', 'sync', '--file', file);
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, message);
      assert.doesNotMatch(result.stderr, /at .*\.js:\d+/, 'no stack trace');
    }
  });
});
