/**
 * The outbox write every repository makes beside its record: job messages become hi_outbox
 * rows (the relay hands them to the queue), event messages go through the event log (which
 * writes their webhook deliveries' messages). It lives with the events feature because an
 * event message needs the event log; pure job writes may use platform/queue/outbox-rows.
 */
import type { Knex } from 'knex';
import { isEventMessage, type OutboxMessage } from '../../../kernel/outbox';
import { recordEvent } from './event-log';
import { outboxRows } from '../../../platform/queue/outbox-rows';

/** Call inside the repository's transaction, beside the row the job (or the event) belongs to. */
export async function writeOutbox(trx: Knex | Knex.Transaction, messages: readonly OutboxMessage[]): Promise<void> {
  const jobs = messages.filter((m) => !isEventMessage(m));
  if (jobs.length > 0) await trx('hi_outbox').insert(outboxRows(jobs));
  for (const message of messages.filter(isEventMessage)) {
    const { organizationId, data } = message.data as { organizationId: string; data: object };
    await recordEvent(trx as Knex.Transaction, { organizationId, type: message.name, data, dedupeKey: message.jobId });
  }
}
