/**
 * Notices that Redis lost its data (restarted without persistence, flushed, failed over to
 * an empty replica) and says so at once, so the jobs Redis forgot are re-enqueued within
 * seconds of its return instead of after the reconciliation sweep's bound.
 *
 * How: a marker key (`<queue prefix>:redis-epoch`) that every process writes if absent
 * (SET NX) and reads back on every (re)connection and every `checkEveryMs`. A process that
 * saw a marker before and finds none, or finds another one, knows the data it relied on is
 * gone. Several processes may notice one loss: what they do about it must be idempotent
 * (the sweep is). A marker evicted under memory pressure only causes one needless sweep.
 */
import { randomBytes } from 'node:crypto';
import type { RedisConnection } from './redis';
import type { Logger } from '../../kernel/logger';

export const REDIS_EPOCH_CHECK_MS = 10_000;

export type EpochCheck = 'first' | 'same' | 'lost';

export class RedisDataLossWatch {
  /** The marker this process last saw; undefined until the first successful check. */
  private seen: string | undefined;
  private checking: Promise<EpochCheck | undefined> | undefined;
  /** A loss noticed whose handling has not succeeded yet. */
  private lossPending = false;
  /** Asked to check while a check ran: check once more when it ends. */
  private again = false;

  constructor(
    private readonly redis: RedisConnection,
    private readonly markerKey: string,
    private readonly onLoss: () => Promise<unknown>,
    private readonly logger: Logger,
  ) {}

  /** Checks now, after every reconnection and every `checkEveryMs`; returns the stop function. */
  start(checkEveryMs = REDIS_EPOCH_CHECK_MS): () => void {
    const check = () => void this.check();
    this.redis.on('ready', check);
    const timer = setInterval(check, checkEveryMs);
    timer.unref();
    if (this.redis.status === 'ready') check();
    return () => {
      clearInterval(timer);
      this.redis.off('ready', check);
    };
  }

  /**
   * One check; undefined when Redis could not answer. A call while a check runs waits for it
   * and then checks again: the running one may have started before a reconnection (its
   * commands replayed on the new server), and must not stand for a check made after it.
   */
  check(): Promise<EpochCheck | undefined> {
    if (this.checking) {
      this.again = true;
      return this.checking;
    }
    this.checking = (async () => {
      let result: EpochCheck | undefined;
      for (let round = 0; round < 3; round++) {
        this.again = false;
        result = await this.checkOnce();
        if (!this.again) break;
      }
      return result;
    })().finally(() => (this.checking = undefined));
    return this.checking;
  }

  private async checkOnce(): Promise<EpochCheck | undefined> {
    let current: string | null;
    try {
      const fresh = `${Date.now()}-${randomBytes(6).toString('hex')}`;
      // Two commands rather than SET NX GET, which needs Redis 7.
      await this.redis.set(this.markerKey, fresh, 'NX');
      current = await this.redis.get(this.markerKey);
      if (current === null) {
        this.again = true; // flushed between the two (or replayed across a restart): look again
        return undefined;
      }
    } catch {
      return undefined; // Redis away: the next reconnection checks again
    }
    const before = this.seen;
    this.seen = current;
    if (before !== undefined && before !== current) {
      this.logger.warn({ markerKey: this.markerKey }, 'Redis lost its data (its epoch marker vanished): re-enqueueing unfinished work now');
      this.lossPending = true;
    }
    if (!this.lossPending) return before === undefined ? 'first' : 'same';
    try {
      await this.onLoss();
      this.lossPending = false;
    } catch (error) {
      // The database may be away too: the next check tries again.
      this.logger.warn({ err: (error as Error).message }, 'could not re-enqueue the work Redis lost; trying again at the next check');
    }
    return 'lost';
  }
}
