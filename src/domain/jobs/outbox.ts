/**
 * A job that must not be lost is written as an outbox message in the same database
 * transaction as the record that needs it; the relay (src/queue/outbox-relay.ts) hands it
 * to the queue afterwards. Repositories accept these messages alongside their writes.
 */
export interface OutboxMessage {
  queue: string;
  name: string;
  data: object;
  /** Deterministic job id: relaying the same message twice enqueues one job. */
  jobId: string;
  delayMs?: number;
}

/** Asks the relay to dispatch now rather than at its next poll. */
export interface OutboxNotifier {
  nudge(): void;
}

export const OUTBOX_NOTIFIER = Symbol('OutboxNotifier');
