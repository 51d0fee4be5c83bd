/**
 * The event log on knex. Recording an event is one transaction: the next sequence number
 * of the organization (a counter row, locked until commit, so sequences follow commit
 * order), the event row, one delivery row per enabled endpoint that wants the type, and
 * each delivery's job as an outbox message. Either all of it is written or none.
 */
import { inject, injectable } from 'tsyringe';
import type { Knex } from 'knex';
import type { EventLog, EventPage, EventQuery, NewEvent, PluginEvent } from '../domain/event';
import { OUTBOX_NOTIFIER, type OutboxNotifier } from '../../../kernel/outbox';
import { newId } from '../../../kernel/ids';
import { deliveryJobId, WEBHOOK_DELIVERY_QUEUE } from '../../webhooks/domain/webhook-delivery';
import { wantsEvent } from '../../webhooks/domain/webhook-endpoint';
import { deletedRows, type Database } from '../../../platform/database/database';
import { fromJson } from '../../../platform/database/json-column';
import { outboxRows } from '../../../platform/queue/outbox-rows';
import { DATABASE } from '../../../platform/database/tokens';

interface EventRow {
  id: string;
  organization_id: string;
  sequence: string | number;
  type: string;
  data: unknown;
  created_at: Date;
}

const fromRow = (row: EventRow): PluginEvent => ({
  id: row.id,
  organizationId: row.organization_id,
  sequence: Number(row.sequence),
  type: row.type,
  data: fromJson<Record<string, unknown>>(row.data),
  createdAt: new Date(row.created_at),
});

/** Writes the event and its deliveries inside `trx` (the caller's transaction, beside the change that caused it). */
export async function recordEvent(trx: Knex | Knex.Transaction, input: NewEvent, now = new Date()): Promise<{ event: PluginEvent; created: boolean }> {
  if (input.dedupeKey) {
    const existing = await trx<EventRow>('hi_events').where('organization_id', input.organizationId).where('dedupe_key', input.dedupeKey).first();
    if (existing) return { event: fromRow(existing), created: false };
  }
  const counter = await trx.raw(
    `insert into hi_event_sequences (organization_id, last_sequence) values (?, 1)
     on conflict (organization_id) do update set last_sequence = hi_event_sequences.last_sequence + 1
     returning last_sequence`,
    [input.organizationId],
  );
  const sequence = Number((counter.rows ?? counter)[0].last_sequence);
  const event: PluginEvent = {
    id: newId('evt'),
    organizationId: input.organizationId,
    sequence,
    type: input.type,
    data: input.data as Record<string, unknown>,
    createdAt: now,
  };
  const inserted = await trx('hi_events')
    .insert({
      id: event.id,
      organization_id: event.organizationId,
      sequence,
      type: event.type,
      data: JSON.stringify(event.data),
      dedupe_key: input.dedupeKey ?? null,
      created_at: now,
    })
    .onConflict(['organization_id', 'dedupe_key'])
    .ignore()
    .returning('id');
  if (inserted.length === 0) {
    // A concurrent writer recorded the same occurrence first (its sequence number stays unused).
    const existing = await trx<EventRow>('hi_events').where('organization_id', input.organizationId).where('dedupe_key', input.dedupeKey!).first();
    return { event: fromRow(existing!), created: false };
  }
  let endpoints = trx('hi_webhook_endpoints').select('id', 'event_types').where({ organization_id: input.organizationId, enabled: true });
  if (input.onlyEndpointId) endpoints = endpoints.andWhere({ id: input.onlyEndpointId });
  const targets = (await endpoints).filter(
    (row: { event_types: unknown }) => input.onlyEndpointId || wantsEvent({ eventTypes: fromJson<string[]>(row.event_types) }, input.type),
  );
  if (targets.length > 0) {
    const deliveries = targets.map((row: { id: string }) => ({
      id: newId('whd'),
      organization_id: input.organizationId,
      endpoint_id: row.id,
      event_id: event.id,
      status: 'pending',
      attempts: 0,
      job_seq: 1,
      next_attempt_at: now,
      window_started_at: now,
      created_at: now,
      updated_at: now,
    }));
    await trx('hi_webhook_deliveries').insert(deliveries);
    await trx('hi_outbox').insert(
      outboxRows(
        deliveries.map((d) => ({ queue: WEBHOOK_DELIVERY_QUEUE, name: 'deliver', jobId: deliveryJobId(d.id, 1), data: { deliveryId: d.id, jobSeq: 1 } })),
      ),
    );
  }
  return { event, created: true };
}

@injectable()
export class KnexEventLog implements EventLog {
  constructor(
    @inject(DATABASE) private readonly db: Database,
    @inject(OUTBOX_NOTIFIER) private readonly outbox: OutboxNotifier,
  ) {}

  async record(input: NewEvent): Promise<{ event: PluginEvent; created: boolean }> {
    const result = await this.db.transaction((trx) => recordEvent(trx, input));
    if (result.created) this.outbox.nudge();
    return result;
  }

  async find(organizationId: string, eventId: string): Promise<PluginEvent | undefined> {
    const row = await this.db<EventRow>('hi_events').where({ id: eventId, organization_id: organizationId }).first();
    return row ? fromRow(row) : undefined;
  }

  /** Newest first; `starting_after` an event id of the previous page. */
  async list(organizationId: string, query: EventQuery): Promise<EventPage> {
    let q = this.db<EventRow>('hi_events')
      .where({ organization_id: organizationId })
      .orderBy('sequence', 'desc')
      .limit(query.limit + 1);
    if (query.types?.length) q = q.whereIn('type', query.types);
    if (query.createdGte) q = q.where('created_at', '>=', query.createdGte);
    if (query.createdLt) q = q.where('created_at', '<', query.createdLt);
    if (query.startingAfter) {
      q = q.where('sequence', '<', this.db('hi_events').select('sequence').where({ id: query.startingAfter, organization_id: organizationId }));
    }
    const rows = await q;
    return { data: rows.slice(0, query.limit).map(fromRow), hasMore: rows.length > query.limit };
  }

  async prune(before: Date): Promise<number> {
    const expired = this.db('hi_events').select('id').where('created_at', '<', before).limit(1000);
    return deletedRows(await this.db('hi_events').whereIn('id', expired).del());
  }
}
