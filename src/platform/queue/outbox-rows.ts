import { isEventMessage, type OutboxMessage } from '../../kernel/outbox';

/** The hi_outbox rows of `messages` (job messages only). */
export function outboxRows(messages: readonly OutboxMessage[]) {
  return messages.map((m) => ({ queue: m.queue, name: m.name, job_id: m.jobId, data: JSON.stringify(m.data), delay_ms: m.delayMs ?? 0 }));
}

/** Job messages only, for a single-statement write beside a record; false when an event message needs the transaction path. */
export const onlyJobMessages = (messages: readonly OutboxMessage[]) => !messages.some(isEventMessage);
