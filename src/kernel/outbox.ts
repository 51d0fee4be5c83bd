/**
 * A job that must not be lost is written as an outbox message in the same database
 * transaction as the record that needs it; the relay (src/platform/queue/outbox-relay.ts) hands it
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

/**
 * Pseudo-queue of outbox messages that are events: the repository's transaction records
 * them in the event log (which fans them out to webhook deliveries) instead of queueing a
 * job, so an event is written if and only if the change that causes it commits.
 */
export const EVENT_LOG_QUEUE = 'event-log';

export interface EventMessageInput {
  organizationId: string;
  type: string;
  data: object;
  /** Names the occurrence: recording it again (a later publish of the same event) is a no-op. */
  dedupeKey: string;
}

export function eventMessage(event: EventMessageInput): OutboxMessage {
  return { queue: EVENT_LOG_QUEUE, name: event.type, jobId: event.dedupeKey, data: { organizationId: event.organizationId, data: event.data } };
}

export const isEventMessage = (message: OutboxMessage) => message.queue === EVENT_LOG_QUEUE;
