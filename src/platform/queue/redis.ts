import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '../../kernel/logger';
import { OutageLog } from '../observability/outage-log';

/** A standalone Redis or a Redis Cluster: every command we use works on both. */
export type RedisConnection = Redis | Cluster;

/**
 * Where Redis is: REDIS_URL, and with REDIS_CLUSTER=true that URL names one node of a
 * Redis Cluster (a seed: the client discovers the others from it). Credentials and TLS
 * (`rediss://`) in the URL apply to every node.
 */
export interface RedisTarget {
  url: string;
  cluster: boolean;
}

export function redisTargetOf(config: { redisUrl?: string | undefined; redisCluster?: boolean }): RedisTarget | undefined {
  return config.redisUrl ? { url: config.redisUrl, cluster: config.redisCluster ?? false } : undefined;
}

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
export function createRedis(target: string | RedisTarget, role: 'producer' | 'worker' | 'subscriber' | 'client' | 'request', logger?: Logger): RedisConnection {
  const { url, cluster } = typeof target === 'string' ? { url: target, cluster: false } : target;
  const options: RedisOptions = {
    maxRetriesPerRequest: role === 'producer' || role === 'client' ? 2 : role === 'request' ? 0 : null,
    enableOfflineQueue: role !== 'producer' && role !== 'request',
    connectionName: `hiring-integrations:${role}`,
    lazyConnect: false,
    ...(role === 'request' ? { commandTimeout: 1000, autoResubscribe: false } : {}),
  };
  const redis = cluster ? createCluster(url, options) : new Redis(url, options);
  if (logger) watchRedis(redis, logger.child({ redisRole: role }));
  else redis.on('error', () => undefined);
  return redis;
}

/** A cluster client seeded by the node the URL names; each node's connection gets `options` and the URL's credentials. */
function createCluster(url: string, options: RedisOptions): Cluster {
  const parsed = new URL(url);
  const { enableOfflineQueue, lazyConnect, ...nodeOptions } = options;
  const decode = (part: string) => (part ? decodeURIComponent(part) : undefined);
  return new Cluster([{ host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(parsed.port || 6379) }], {
    enableOfflineQueue,
    lazyConnect,
    redisOptions: {
      ...nodeOptions,
      username: decode(parsed.username),
      password: decode(parsed.password),
      ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
    },
  });
}

/**
 * Logs a connection's outage once when it starts and once when it ends (and keeps ioredis
 * from printing every error). Copies made with `duplicate()` are watched too, under the same
 * outage log: BullMQ makes one per worker for its blocking reads, and the listener it puts
 * on it only forwards to the worker's 'error' event, for as long as the worker is open; a
 * connection of ours never relies on a library's listener to keep ioredis from printing
 * "[ioredis] Unhandled error event".
 */
export function watchRedis(redis: RedisConnection, logger: Logger, outage = new OutageLog(logger, 'redis')): void {
  redis.on('error', (error: Error) => outage.down(error));
  redis.on('ready', () => outage.up());
  onDuplicate(redis, (copy) => {
    copy.on('error', (error: Error) => outage.down(error));
    copy.on('ready', () => outage.up());
  });
}

/** Calls `listener` with every copy `duplicate()` makes of this connection (and of its copies). */
export function onDuplicate(redis: RedisConnection, listener: (copy: RedisConnection) => void): void {
  const duplicate = (redis.duplicate as (...args: unknown[]) => RedisConnection).bind(redis);
  (redis as { duplicate: unknown }).duplicate = (...args: unknown[]) => {
    const copy = duplicate(...args);
    onDuplicate(copy, listener);
    listener(copy);
    return copy;
  };
}

/**
 * Resolves true once the connection is usable (`ready`) or closed for good (`end`), false if
 * it is still connecting or waiting to reconnect after `timeoutMs` (Redis away).
 */
export function whenSettled(redis: RedisConnection, timeoutMs: number): Promise<boolean> {
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
export async function closeRedis(redis: RedisConnection): Promise<void> {
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
