import type { OutboxMessage } from '../../kernel/outbox';

/** The hi_outbox rows of `messages` (job messages only). */
export function outboxRows(messages: readonly OutboxMessage[]) {
  return messages.map((m) => ({ queue: m.queue, name: m.name, job_id: m.jobId, data: JSON.stringify(m.data), delay_ms: m.delayMs ?? 0 }));
}
