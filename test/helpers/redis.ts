import { randomToken } from '../../src/kernel/ids';
import { skipBecause } from './skip';

export const usingRedis = () => Boolean(process.env.REDIS_URL);

/** Skips the current suite or test in embedded runs, saying why. */
export function requireRedis(context: Mocha.Context): void {
  if (!usingRedis()) skipBecause(context, 'needs REDIS_URL; embedded mode runs jobs in-process');
}

/** A queue prefix of its own per test file; the braces keep it a Redis Cluster hash tag. */
export const uniqueQueuePrefix = () => `{hi-test-${randomToken(8)}}`;
