/**
 * The Redis data-loss watch on a real redis-server of the test's own: a marker that stays
 * means nothing was lost; a FLUSHALL or a restart without persistence is noticed by the next
 * check (after a restart, by the reconnection itself), and a failed reaction is tried again.
 */
import { strict as assert } from 'node:assert';
import { RedisDataLossWatch } from '../../src/platform/queue/redis-data-loss-watch';
import { closeRedis, createRedis } from '../../src/platform/queue/redis';
import { testLogger } from '../helpers/log-capture';
import { waitFor } from '../helpers/profile-flow';
import { usingRedis } from '../helpers/redis';
import { DedicatedRedis } from '../helpers/redis-server';
import { skipBecause } from '../helpers/skip';

describe('Redis data-loss watch', function () {
  this.timeout(30_000);
  let redis: DedicatedRedis | undefined;

  before(async function () {
    if (!usingRedis()) {
      skipBecause(this, 'needs REDIS_URL (CI mode) and redis-server; embedded mode');
    }
    redis = await DedicatedRedis.start();
  });
  after(() => redis?.stop());

  it('notices a flush and a restart, reacts once per loss, and retries a reaction that failed', async () => {
    const connection = createRedis(redis!.url, 'client');
    let losses = 0;
    let failNext = false;
    const watch = new RedisDataLossWatch(
      connection,
      '{watch-test}:redis-epoch',
      async () => {
        if (failNext) {
          failNext = false;
          throw new Error('database away');
        }
        losses++;
      },
      testLogger(),
    );
    try {
      await waitFor(async () => connection.status === 'ready', 'connected');
      assert.equal(await watch.check(), 'first');
      assert.equal(await watch.check(), 'same');
      assert.equal(losses, 0);

      await connection.flushall();
      failNext = true;
      assert.equal(await watch.check(), 'lost');
      assert.equal(losses, 0, 'the reaction failed');
      assert.equal(await watch.check(), 'lost', 'and is tried again at the next check');
      assert.equal(losses, 1);
      assert.equal(await watch.check(), 'same');

      // A restart without persistence: the reconnection alone triggers the check.
      const stop = watch.start(60_000);
      try {
        await redis!.stop();
        await redis!.start();
        await waitFor(async () => losses === 2, 'the loss noticed on reconnection', 10_000);
      } finally {
        stop();
      }
      assert.equal(await watch.check(), 'same');
      assert.equal(losses, 2);
    } finally {
      await closeRedis(connection);
    }
  });
});
