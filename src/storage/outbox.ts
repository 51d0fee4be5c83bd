import type { Knex } from 'knex';
import type { OutboxMessage } from '../domain/jobs/outbox';

/** The hi_outbox rows of `messages` (for a single-statement write beside a record). */
export function outboxRows(messages: readonly OutboxMessage[]) {
  return messages.map((m) => ({ queue: m.queue, name: m.name, job_id: m.jobId, data: JSON.stringify(m.data), delay_ms: m.delayMs ?? 0 }));
}

/** Call inside the repository's transaction, beside the row the job belongs to. */
export async function writeOutbox(trx: Knex | Knex.Transaction, messages: readonly OutboxMessage[]): Promise<void> {
  if (messages.length === 0) return;
  await trx('hi_outbox').insert(outboxRows(messages));
}
