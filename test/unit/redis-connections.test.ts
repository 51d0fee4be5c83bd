import { strict as assert } from 'node:assert';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/platform/logging/pino-logger';
import type { Redis } from 'ioredis';
import { createRedis } from '../../src/platform/queue/redis';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Redis connections', () => {
  it('log an outage once, copies of a connection (BullMQ makes one per worker) included, and leave no error unhandled, with or without a logger', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger({ level: 'debug', destination });
    const printed: unknown[][] = [];
    const consoleError = console.error;
    console.error = (...args: unknown[]) => void printed.push(args);
    // Nothing listens on port 1: every connection attempt is refused.
    const redis = createRedis('redis://127.0.0.1:1', 'worker', logger) as Redis;
    const copy = redis.duplicate({ connectionName: 'blocking' });
    const unlogged = createRedis('redis://127.0.0.1:1', 'client');
    try {
      // ioredis tries again after 50, 100, 150… ms: several failed attempts each.
      await sleep(700);
      assert.equal(copy.listenerCount('error'), 1, 'the copy has an error listener');
      assert.equal(unlogged.listenerCount('error'), 1, 'so has a connection made without a logger');
      const ours = printed.filter((args) => args.some((arg) => /ECONNREFUSED 127\.0\.0\.1:1\b/.test(String(arg))));
      assert.deepEqual(ours, [], 'nothing printed by ioredis ("Unhandled error event")');
      const outages = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'redis unavailable');
      assert.equal(outages.length, 1, lines.join(''));
      assert.equal(outages[0].redisRole, 'worker');
    } finally {
      console.error = consoleError;
      redis.disconnect();
      copy.disconnect();
      unlogged.disconnect();
    }
  });
});
