/**
 * For processes that change cached data without running the plugin (the operator CLI's
 * `key revoke` and `key rotate`): publishes the change on the cache channel so every API
 * process drops its entry within the invalidation bound. Without Redis there is no other
 * process to tell (embedded mode: the CLI cannot run beside the server).
 */
import type { Config } from '../../kernel/config';
import { closeRedis, createRedis, redisTargetOf } from '../queue/redis';
import { cacheChannel } from './cache-invalidations';

/** Resolves false when Redis could not be told (API processes then notice within the cache TTL). */
export async function announceCacheChange(config: Config, cache: string, key: string): Promise<boolean> {
  const target = redisTargetOf(config);
  if (!target) return true;
  const redis = createRedis(target, 'client');
  redis.on('error', () => undefined);
  try {
    // The envelope RedisCacheInvalidations reads; an origin no subscriber has.
    await redis.publish(cacheChannel(config.queuePrefix), JSON.stringify({ o: 'cli', c: cache, k: key }));
    return true;
  } catch {
    return false;
  } finally {
    await closeRedis(redis);
  }
}
