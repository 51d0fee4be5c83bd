import { randomToken } from '../../src/kernel/ids';

export const usingRedis = () => Boolean(process.env.REDIS_URL);

/** Skips the current suite or test in embedded runs, saying why. */
export function requireRedis(context: Mocha.Context): void {
  if (!usingRedis()) {
    context.test?.parent && (context.test.title += ' (skipped: REDIS_URL is not set, embedded mode)');
    context.skip();
  }
}

/** A queue prefix of its own per test file; the braces keep it a Redis Cluster hash tag. */
export const uniqueQueuePrefix = () => `{hi-test-${randomToken(8)}}`;
