/**
 * How one attempt ends, for any delivery: acknowledged → `succeeded`; a permanent failure →
 * `failed`; a transient one → `retrying` at the backoff's next moment, or `exhausted` once
 * the window is over. Deliveries with their own schedule (webhooks) get the moment here;
 * those retried by their queue's backoff (action runs, `platform/queue/retry-policy.ts`)
 * pass no schedule and are `retrying` until their job gives up.
 */
import { nextAttemptAt, type RetrySchedule } from './backoff';
import { transition, type DeliveryEvent, type DeliveryStatus } from './delivery-state';
import type { FailureVerdict } from './failure';

export type AttemptEnd = { kind: 'acknowledged' } | { kind: 'failure'; verdict: FailureVerdict };

export interface Settlement {
  event: DeliveryEvent;
  status: Extract<DeliveryStatus, 'succeeded' | 'failed' | 'retrying' | 'exhausted'>;
  /** When `retrying` on a schedule: the next attempt's moment. */
  nextAttemptAt?: Date;
}

export interface SettleOptions {
  /** This attempt's number (1 for the first). */
  attempt: number;
  now: Date;
  /** Absent: the queue's backoff retries (no window here). */
  schedule?: { retry: RetrySchedule; windowStartedAt: Date; random?: () => number };
}

export function settleAttempt(end: AttemptEnd, options: SettleOptions): Settlement {
  const running = { status: 'running' as const, attempts: options.attempt, window: 0 };
  let event: DeliveryEvent;
  let next: Date | undefined;
  if (end.kind === 'acknowledged') event = { type: 'acknowledged' };
  else if (!end.verdict.transient) event = { type: 'permanent' };
  else if (!options.schedule) event = { type: 'transient', exhausted: false };
  else {
    const { retry, windowStartedAt, random } = options.schedule;
    next = nextAttemptAt(retry, options.attempt, windowStartedAt, options.now, random, end.verdict.retryAfterSeconds);
    event = { type: 'transient', exhausted: next === undefined };
  }
  const status = transition(running, event)!.status as Settlement['status'];
  return { event, status, ...(next ? { nextAttemptAt: next } : {}) };
}
