/** Every migration goes up and comes back down, on PostgreSQL (CI) and on PGlite (always). */
import { strict as assert } from 'node:assert';
import { createDatabase, type Database } from '../../src/storage/database';
import { migrateLatest, migrateRollbackAll, PLUGIN_MIGRATIONS } from '../../src/storage/migrator';
import { HOST_MIGRATIONS } from '../../src/standalone/standalone-host';
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

describe('migrations', () => {
  upAndDown('PGlite', async () => {
    const db = createDatabase({ dataDir: 'memory' });
    return { db, close: () => db.destroy() };
  });

  if (usingPostgres()) {
    upAndDown('PostgreSQL', async () => {
      const database = await createTestDatabase();
      return { db: database.db, close: () => database.drop() };
    });
  } else {
    it('PostgreSQL (skipped: DATABASE_URL is not set, embedded mode)');
  }
});
