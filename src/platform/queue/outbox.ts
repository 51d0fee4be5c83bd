import type { Knex } from 'knex';
import { isEventMessage, type OutboxMessage } from '../../kernel/outbox';
import { recordEvent } from '../../features/events/storage/event-log';
import { outboxRows } from './outbox-rows';

export { outboxRows } from './outbox-rows';

/** Job messages only, for a single-statement write beside a record; false when an event message needs the transaction path. */
export const onlyJobMessages = (messages: readonly OutboxMessage[]) => !messages.some(isEventMessage);

/** Call inside the repository's transaction, beside the row the job (or the event) belongs to. */
export async function writeOutbox(trx: Knex | Knex.Transaction, messages: readonly OutboxMessage[]): Promise<void> {
  const jobs = messages.filter((m) => !isEventMessage(m));
  if (jobs.length > 0) await trx('hi_outbox').insert(outboxRows(jobs));
  for (const message of messages.filter(isEventMessage)) {
    const { organizationId, data } = message.data as { organizationId: string; data: object };
    await recordEvent(trx as Knex.Transaction, { organizationId, type: message.name, data, dedupeKey: message.jobId });
  }
}
