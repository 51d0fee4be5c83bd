import { Redis, type RedisOptions } from 'ioredis';

/**
 * BullMQ workers need `maxRetriesPerRequest: null` (blocking commands must not give up);
 * producers in the API fail fast instead, so a Redis outage answers quickly.
 */
export function createRedis(url: string, role: 'producer' | 'worker' | 'subscriber' | 'client'): Redis {
  const options: RedisOptions = {
    maxRetriesPerRequest: role === 'producer' || role === 'client' ? 2 : null,
    enableOfflineQueue: role !== 'producer',
    connectionName: `hiring-integrations:${role}`,
    lazyConnect: false,
  };
  return new Redis(url, options);
}
