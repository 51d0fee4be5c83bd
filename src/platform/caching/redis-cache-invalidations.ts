/**
 * CacheInvalidations on Redis pub/sub, channel `<QUEUE_PREFIX>:caches` (namespaced like the
 * queues, so two installations on one Redis do not hear each other). The pattern of the
 * entitlement cache's channel, now shared by every per-process cache.
 *
 * Publishing uses the shared client connection; subscribing needs a connection of its own
 * (a subscribed connection can do nothing else), created from a factory and closed by the
 * disposer. Pub/sub delivers at most once: after the subscriber reconnects, messages sent
 * meanwhile are gone, so listeners get a `reset` and clear their caches. Publishing never
 * happens on a request's read path, only after a write.
 */
import { closeRedis, type RedisConnection } from '../queue/redis';
import { OutageLog } from '../observability/outage-log';
import { randomToken } from '../../kernel/ids';
import type { Disposer } from '../../kernel/disposer';
import type { Logger } from '../../kernel/logger';
import type { CacheInvalidation, CacheInvalidations } from './cache-invalidations';

interface Envelope {
  /** Which adapter instance published it: it does not deliver its own messages back. */
  o: string;
  c: string;
  k: string;
}

export class RedisCacheInvalidations implements CacheInvalidations {
  private readonly origin = randomToken(12);

  constructor(
    private readonly publisher: RedisConnection,
    private readonly createSubscriber: () => RedisConnection,
    private readonly channel: string,
    private readonly logger: Logger,
    private readonly subscribeTimeoutMs = 3000,
  ) {}

  async publish(cache: string, key: string): Promise<void> {
    await this.publisher.publish(this.channel, JSON.stringify({ o: this.origin, c: cache, k: key } satisfies Envelope));
  }

  async subscribe(listener: (change: CacheInvalidation) => void): Promise<Disposer> {
    const subscriber = this.createSubscriber();
    let readyOnce = false;
    // Every reconnection attempt during an outage fails: logged when it starts and when it ends.
    const outage = new OutageLog(this.logger.child({ channel: this.channel }), 'cache invalidation subscriber');
    subscriber.on('error', (error: Error) => outage.down(error));
    subscriber.on('ready', () => {
      outage.up();
      // ioredis resubscribes by itself after a reconnect; what was published meanwhile is lost.
      if (readyOnce) listener({ type: 'reset' });
      readyOnce = true;
    });
    subscriber.on('message', (channel: string, message: string) => {
      if (channel !== this.channel) return;
      let envelope: Envelope;
      try {
        envelope = JSON.parse(message) as Envelope;
      } catch {
        this.logger.warn({ channel }, 'unreadable cache invalidation ignored');
        return;
      }
      if (envelope.o === this.origin || typeof envelope.c !== 'string' || typeof envelope.k !== 'string') return;
      listener({ type: 'changed', cache: envelope.c, key: envelope.k });
    });
    const close = async () => {
      subscriber.removeAllListeners('message');
      await closeRedis(subscriber);
    };
    // Wait for the subscription, but not forever: with Redis down at start the process
    // still starts (entries then live at most the TTL); a late subscription clears the
    // caches once, since changes before it were not heard.
    let late = false;
    const subscribed = subscriber.subscribe(this.channel).then(
      () => {
        if (late) listener({ type: 'reset' });
        return true;
      },
      (error: Error) => {
        this.logger.error({ channel: this.channel, err: error.message }, 'subscribing to cache invalidations failed');
        return false;
      },
    );
    let timer: NodeJS.Timeout | undefined;
    const inTime = await Promise.race([subscribed, new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), this.subscribeTimeoutMs)))]);
    clearTimeout(timer);
    if (!inTime) {
      late = true;
      this.logger.warn({ channel: this.channel }, 'cache invalidations not subscribed yet; cached answers live at most the TTL until they are');
    }
    return close;
  }
}
