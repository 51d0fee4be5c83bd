/**
 * The refresh lock holds across processes: two separate connection pools (as two API or
 * worker processes have) never run work for the same key at once; other keys do not wait.
 * Embedded mode has one process, so the in-process lock is what it uses.
 */
import { strict as assert } from 'node:assert';
import { createDatabase, type Database } from '../../src/platform/database/database';
import { AdvisoryRefreshLock } from '../../src/features/profiles/storage/advisory-refresh-lock';
import { InProcessLock } from '../../src/features/profiles/storage/in-process-lock';
import type { RefreshLock } from '../../src/features/profiles/domain/refresh-lock';
import { createTestDatabase, usingPostgres, type TestDatabase } from '../helpers/database';
import { skipBecause } from '../helpers/skip';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `n` holders of one key on the given locks; returns the most that ever ran at once. */
async function overlap(locks: RefreshLock[], n: number, key: string): Promise<number> {
  let running = 0;
  let most = 0;
  await Promise.all(
    Array.from({ length: n }, (_, i) =>
      locks[i % locks.length]!.run(key, async () => {
        running += 1;
        most = Math.max(most, running);
        await sleep(20);
        running -= 1;
      }),
    ),
  );
  return most;
}

describe('profile: the refresh lock', function () {
  this.timeout(30_000);

  it('in-process: one holder per key at a time, a failing holder releases it', async () => {
    const lock = new InProcessLock();
    assert.equal(await overlap([lock], 8, 'k'), 1);
    await assert.rejects(
      lock.run('k', async () => Promise.reject(new Error('boom'))),
      /boom/,
    );
    assert.equal(await lock.run('k', async () => 'next'), 'next');
  });

  describe('PostgreSQL advisory lock', () => {
    let database: TestDatabase;
    let second: Database;
    before(async function () {
      if (!usingPostgres()) skipBecause(this, 'needs DATABASE_URL: a PostgreSQL advisory lock');
      database = await createTestDatabase();
      second = createDatabase({ databaseUrl: database.url!, poolMax: 4 });
    });
    after(async () => {
      await second?.destroy();
      await database?.drop();
    });

    it('two processes never hold one key at once; another key does not wait', async () => {
      const locks = [new AdvisoryRefreshLock(database.db), new AdvisoryRefreshLock(second)];
      assert.equal(await overlap(locks, 10, 'refresh:org_a:usr_a'), 1);
      // Different keys run side by side.
      let together = 0;
      let most = 0;
      await Promise.all(
        ['refresh:org_a:usr_a', 'refresh:org_a:usr_b'].map((key, i) =>
          locks[i]!.run(key, async () => {
            together += 1;
            most = Math.max(most, together);
            await sleep(100);
            together -= 1;
          }),
        ),
      );
      assert.equal(most, 2);
    });
  });
});
