import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '../../kernel/logger';
import { OutageLog } from '../observability/outage-log';

/**
 * BullMQ workers need `maxRetriesPerRequest: null` (blocking commands must not give up);
 * producers in the API fail fast instead, so a Redis outage answers quickly.
 *
 * `request`: the connection for commands made while a request waits (entitlement
 * invalidations, readiness): no offline queue and a command timeout, so with Redis away
 * a command fails at once instead of waiting for, and being replayed on, a reconnect.
 *
 * Every connection has an error listener from the start: ioredis prints each error of a
 * connection without one ("[ioredis] Unhandled error event", every reconnection attempt
 * while Redis is away, for as long as the connection lives). With a logger it is the outage
 * log (watchRedis); without one the caller logs what it needs, its commands still fail with
 * the error.
 */
export function createRedis(url: string, role: 'producer' | 'worker' | 'subscriber' | 'client' | 'request', logger?: Logger): Redis {
  const options: RedisOptions = {
    maxRetriesPerRequest: role === 'producer' || role === 'client' ? 2 : role === 'request' ? 0 : null,
    enableOfflineQueue: role !== 'producer' && role !== 'request',
    connectionName: `hiring-integrations:${role}`,
    lazyConnect: false,
    ...(role === 'request' ? { commandTimeout: 1000, autoResubscribe: false } : {}),
  };
  const redis = new Redis(url, options);
  if (logger) watchRedis(redis, logger.child({ redisRole: role }));
  else redis.on('error', () => undefined);
  return redis;
}

/**
 * Logs a connection's outage once when it starts and once when it ends (and keeps ioredis
 * from printing every error). Copies made with `duplicate()` are watched too, under the same
 * outage log: BullMQ makes one per worker for its blocking reads, and the listener it puts
 * on it only forwards to the worker's 'error' event, for as long as the worker is open; a
 * connection of ours never relies on a library's listener to keep ioredis from printing
 * "[ioredis] Unhandled error event".
 */
export function watchRedis(redis: Redis, logger: Logger, outage = new OutageLog(logger, 'redis')): void {
  redis.on('error', (error: Error) => outage.down(error));
  redis.on('ready', () => outage.up());
  const duplicate = redis.duplicate.bind(redis);
  redis.duplicate = ((override?: Partial<RedisOptions>) => {
    const copy = duplicate(override);
    watchRedis(copy, logger, outage);
    return copy;
  }) as Redis['duplicate'];
}

/** Calls `listener` with every copy `duplicate()` makes of this connection (and of its copies). */
export function onDuplicate(redis: Redis, listener: (copy: Redis) => void): void {
  const duplicate = redis.duplicate.bind(redis);
  redis.duplicate = ((override?: Partial<RedisOptions>) => {
    const copy = duplicate(override);
    onDuplicate(copy, listener);
    listener(copy);
    return copy;
  }) as Redis['duplicate'];
}

/**
 * Resolves true once the connection is usable (`ready`) or closed for good (`end`), false if
 * it is still connecting or waiting to reconnect after `timeoutMs` (Redis away).
 */
export function whenSettled(redis: Redis, timeoutMs: number): Promise<boolean> {
  const settled = () => redis.status === 'ready' || redis.status === 'end';
  if (settled()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      redis.off('end', done);
      resolve(settled());
    };
    const timer = setTimeout(done, timeoutMs);
    redis.on('ready', done);
    redis.on('end', done);
  });
}

/** QUIT when connected; a connection that is not (Redis away) is dropped rather than waited on. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'end') return;
  if (redis.status !== 'ready') {
    redis.disconnect();
    return;
  }
  await redis.quit().then(
    () => undefined,
    () => redis.disconnect(),
  );
}
