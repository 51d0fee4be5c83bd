/**
 * EntitlementInvalidations on Redis pub/sub. Channel: `<QUEUE_PREFIX>:entitlements`
 * (namespaced like the queues, so two installations on one Redis do not hear each other).
 *
 * Publishing uses the shared client connection; subscribing needs a connection of its
 * own (a subscribed connection can do nothing else), created from a factory and closed
 * by the disposer. Pub/sub delivers at most once: when the subscriber reconnects after a
 * drop, messages sent meanwhile are gone, so listeners get a `reset` and clear the cache.
 */
import type { Redis } from 'ioredis';
import { closeRedis } from '../queue/redis';
import { randomToken } from '../domain/shared/ids';
import type { Disposer } from '../domain/shared/disposer';
import type { Logger } from '../domain/shared/logger';
import type { EntitlementInvalidation, EntitlementInvalidations } from '../domain/entitlements/entitlement-invalidations';

export const entitlementChannel = (queuePrefix: string) => `${queuePrefix}:entitlements`;

interface Envelope {
  /** Which adapter instance published it: it does not deliver its own messages back. */
  o: string;
  c: EntitlementInvalidation;
}

export class RedisEntitlementInvalidations implements EntitlementInvalidations {
  private readonly origin = randomToken(12);

  constructor(
    private readonly publisher: Redis,
    private readonly createSubscriber: () => Redis,
    private readonly channel: string,
    private readonly logger: Logger,
    private readonly subscribeTimeoutMs = 3000,
  ) {}

  async publish(change: EntitlementInvalidation): Promise<void> {
    await this.publisher.publish(this.channel, JSON.stringify({ o: this.origin, c: change } satisfies Envelope));
  }

  async subscribe(listener: (change: EntitlementInvalidation) => void): Promise<Disposer> {
    const subscriber = this.createSubscriber();
    let readyOnce = false;
    subscriber.on('error', (error: Error) => this.logger.warn({ channel: this.channel, err: error.message }, 'entitlement subscriber connection error'));
    subscriber.on('ready', () => {
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
        this.logger.warn({ channel }, 'unreadable entitlement invalidation ignored');
        return;
      }
      if (envelope.o === this.origin) return;
      const change = envelope.c;
      if (change?.type === 'reset') listener(change);
      else if (change?.type === 'changed' && typeof change.organizationId === 'string' && typeof change.actionKey === 'string') listener(change);
    });
    const close = async () => {
      subscriber.removeAllListeners('message');
      await closeRedis(subscriber); // never waits on a Redis that is away
    };
    // Wait for the subscription, but not forever: with Redis down at start the process
    // still starts (entries then live at most the TTL), and when the subscription lands
    // late, the cache is cleared once, since changes before it were not heard.
    let late = false;
    const subscribed = subscriber.subscribe(this.channel).then(
      () => {
        if (late) listener({ type: 'reset' });
        return true;
      },
      (error: Error) => {
        this.logger.error({ channel: this.channel, err: error.message }, 'subscribing to entitlement invalidations failed');
        return false;
      },
    );
    let timer: NodeJS.Timeout | undefined;
    const inTime = await Promise.race([subscribed, new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), this.subscribeTimeoutMs)))]);
    clearTimeout(timer);
    if (!inTime) {
      late = true;
      this.logger.warn({ channel: this.channel }, 'entitlement invalidations not subscribed yet; cached answers live at most the TTL until they are');
    }
    return close;
  }
}
