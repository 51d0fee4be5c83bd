/** Every migration goes up and comes back down, on PostgreSQL (CI) and on PGlite (always). */
import { strict as assert } from 'node:assert';
import { createDatabase, type Database } from '../../src/platform/database/database';
import { migrateLatest, migrateRollbackAll, PLUGIN_MIGRATIONS } from '../../src/platform/database/migrator';
import { HOST_MIGRATIONS, migrateAll } from '../../src/standalone/host/standalone-host';
import { createTestDatabase, usingPostgres } from '../helpers/database';

async function tables(db: Database): Promise<string[]> {
  const result = await db.raw(`select table_name from information_schema.tables where table_schema = current_schema() order by 1`);
  return result.rows.map((r: { table_name: string }) => r.table_name);
}

function upAndDown(label: string, open: () => Promise<{ db: Database; close(): Promise<void> }>) {
  it(`${label}: up, down and up again`, async () => {
    const { db, close } = await open();
    try {
      const applied = await migrateLatest(db);
      assert.ok(applied.length >= 2);
      await migrateLatest(db, HOST_MIGRATIONS);
      const all = await tables(db);
      for (const table of ['hi_organizations', 'hi_api_keys', 'hi_idempotency_keys', 'host_listings']) assert.ok(all.includes(table), table);
      // Namespaced: every plugin table carries the plugin prefix.
      assert.ok(
        all.filter((t) => !t.startsWith('host_')).every((t) => t.startsWith('hi_')),
        all.join(','),
      );

      const reverted = await migrateRollbackAll(db);
      assert.equal(reverted.length, applied.length);
      const left = (await tables(db)).filter((t) => t.startsWith('hi_') && !t.startsWith(PLUGIN_MIGRATIONS.tableName!));
      assert.deepEqual(left, []);
      await migrateRollbackAll(db, HOST_MIGRATIONS);
      assert.equal((await migrateLatest(db)).length, applied.length);
    } finally {
      await close();
    }
  });
}

describe('migrations', function () {
  // PGlite's run takes ~4 s alone; a loaded 2-core machine has taken 20.
  this.timeout(90_000);
  upAndDown('PGlite', async () => {
    const db = createDatabase({ dataDir: 'memory' });
    return { db, close: () => db.destroy() };
  });

  if (usingPostgres()) {
    upAndDown('PostgreSQL', async () => {
      const database = await createTestDatabase();
      return { db: database.db, close: () => database.drop() };
    });

    it('PostgreSQL: processes started together on a new database (two API replicas, a pool of one connection each) all migrate it, each migration once', async () => {
      const database = await createTestDatabase();
      const url = database.url!;
      const pools = Array.from({ length: 4 }, () => createDatabase({ databaseUrl: url, poolMax: 1 }));
      try {
        // With a progress listener, as `serve` starts: it counts what is pending first.
        const applied = await Promise.all(pools.map((db) => migrateAll(db, { progress: () => undefined })));
        const total = (await migrateLatest(database.db, { ...PLUGIN_MIGRATIONS })).length;
        assert.equal(total, 0, 'nothing left to apply');
        // Each migration ran in exactly one of them.
        const rows = await database.db(PLUGIN_MIGRATIONS.tableName!).select('name');
        assert.equal(new Set(rows.map((r) => r.name)).size, rows.length);
        const hostRows = await database.db(HOST_MIGRATIONS.tableName!).select('name');
        assert.equal(
          applied.reduce((a, b) => a + b, 0),
          rows.length + hostRows.length,
        );
      } finally {
        await Promise.all(pools.map((db) => db.destroy()));
        await database.drop();
      }
    });
  } else {
    it('PostgreSQL (skipped: DATABASE_URL is not set, embedded mode)');
  }
});
