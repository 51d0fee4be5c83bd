/**
 * The event log on knex. Recording an event is one transaction (shared by the events of one
 * organization recorded concurrently): the next sequence number of the organization (a
 * counter row, locked until commit, so sequences follow commit order) taken by the same
 * statement that writes the event row, one delivery row per enabled endpoint that wants the type, and
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
import { GroupCommit } from '../../../kernel/group-commit';

interface EventRow {
  id: string;
  organization_id: string;
  sequence: string | number;
  type: string;
  data: unknown;
  dedupe_key?: string | null;
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
  return (await recordEvents(trx, input.organizationId, [input], now))[0]!;
}

/**
 * Writes one organization's events, in order, and their deliveries inside `trx`. Everything
 * that needs no sequence number is read before the organization's counter row is locked;
 * one statement then takes the numbers and writes the events, so the lock is held for that
 * round trip and the commit (concurrent recorders of one organization queue on that row;
 * see BENCHMARKS.md, the reminder row).
 */
export async function recordEvents(
  trx: Knex | Knex.Transaction,
  organizationId: string,
  inputs: NewEvent[],
  now = new Date(),
): Promise<{ event: PluginEvent; created: boolean }[]> {
  return (await recordEventsAndDeliveries(trx, organizationId, inputs, now)).results;
}

/** recordEvents, also answering how many webhook deliveries (each an outbox message) it wrote. */
async function recordEventsAndDeliveries(
  trx: Knex | Knex.Transaction,
  organizationId: string,
  inputs: NewEvent[],
  now: Date,
): Promise<{ results: { event: PluginEvent; created: boolean }[]; deliveries: number }> {
  let written = 0;
  const results: ({ event: PluginEvent; created: boolean } | undefined)[] = inputs.map(() => undefined);
  const existingFor = async (keys: string[]) =>
    new Map(
      (keys.length === 0 ? [] : await trx<EventRow>('hi_events').where('organization_id', organizationId).whereIn('dedupe_key', keys)).map((row: EventRow) => [
        row.dedupe_key!,
        fromRow(row),
      ]),
    );
  const recorded = await existingFor(inputs.flatMap((i) => (i.dedupeKey ? [i.dedupeKey] : [])));
  const fresh = inputs.flatMap((input, index) => {
    const earlier = input.dedupeKey ? recorded.get(input.dedupeKey) : undefined;
    if (earlier) results[index] = { event: earlier, created: false };
    return earlier ? [] : [{ input, index, id: newId('evt') }];
  });
  if (fresh.length > 0) {
    const endpoints = await trx('hi_webhook_endpoints').select('id', 'event_types').where({ organization_id: organizationId, enabled: true });
    const rows = fresh.map((f, i) => ({ ord: i + 1, id: f.id, type: f.input.type, data: f.input.data, dedupe_key: f.input.dedupeKey ?? null }));
    const inserted = await trx.raw(
      `with counter as (
         insert into hi_event_sequences (organization_id, last_sequence) values (?, ?)
         on conflict (organization_id) do update set last_sequence = hi_event_sequences.last_sequence + excluded.last_sequence
         returning last_sequence)
       insert into hi_events (id, organization_id, sequence, type, data, dedupe_key, created_at)
       select v.id, ?, counter.last_sequence - ? + v.ord, v.type, v.data, v.dedupe_key, ?::timestamptz
       from counter, jsonb_to_recordset(?::jsonb) as v(id text, type text, data jsonb, dedupe_key text, ord bigint)
       on conflict (organization_id, dedupe_key) do nothing
       returning id, sequence`,
      [organizationId, fresh.length, organizationId, fresh.length, now, JSON.stringify(rows)],
    );
    const sequences = new Map(((inserted.rows ?? inserted) as { id: string; sequence: string | number }[]).map((r) => [r.id, Number(r.sequence)]));
    // Those a concurrent writer (or an earlier item of this batch) recorded first (their sequence numbers stay unused).
    const raced = await existingFor(fresh.filter((f) => !sequences.has(f.id)).map((f) => f.input.dedupeKey!));
    const deliveries = [];
    for (const { input, index, id } of fresh) {
      const sequence = sequences.get(id);
      if (sequence === undefined) {
        results[index] = { event: raced.get(input.dedupeKey!)!, created: false };
        continue;
      }
      const event: PluginEvent = { id, organizationId, sequence, type: input.type, data: input.data as Record<string, unknown>, createdAt: now };
      results[index] = { event, created: true };
      const targets = endpoints.filter(
        (row: { id: string; event_types: unknown }) =>
          (input.onlyEndpointId ? row.id === input.onlyEndpointId : true) &&
          (input.onlyEndpointId || wantsEvent({ eventTypes: fromJson<string[]>(row.event_types) }, input.type)),
      );
      for (const row of targets as { id: string }[])
        deliveries.push({
          id: newId('whd'),
          organization_id: organizationId,
          endpoint_id: row.id,
          event_id: id,
          status: 'pending',
          attempts: 0,
          job_seq: 1,
          next_attempt_at: now,
          window_started_at: now,
          created_at: now,
          updated_at: now,
        });
    }
    written = deliveries.length;
    if (deliveries.length > 0) {
      await trx('hi_webhook_deliveries').insert(deliveries);
      await trx('hi_outbox').insert(
        outboxRows(
          deliveries.map((d) => ({ queue: WEBHOOK_DELIVERY_QUEUE, name: 'deliver', jobId: deliveryJobId(d.id, 1), data: { deliveryId: d.id, jobSeq: 1 } })),
        ),
      );
    }
  }
  return { results: results.map((r) => r!), deliveries: written };
}

@injectable()
export class KnexEventLog implements EventLog {
  constructor(
    @inject(DATABASE) private readonly db: Database,
    @inject(OUTBOX_NOTIFIER) private readonly outbox: OutboxNotifier,
  ) {}

  /** Concurrent recorders of one organization share a transaction (see GroupCommit): its counter row is their bottleneck. */
  private readonly batches = new GroupCommit<NewEvent, { event: PluginEvent; created: boolean }>(async (organizationId, inputs) => {
    const { results, deliveries } = await this.db.transaction((trx) => recordEventsAndDeliveries(trx, organizationId, inputs, new Date()));
    // Only outbox messages need the relay: an event no endpoint wants wrote none, and nudging for it
    // cost a relay pass (BEGIN, SELECT … FOR UPDATE SKIP LOCKED, COMMIT) for nothing.
    if (deliveries > 0) this.outbox.nudge();
    return results;
  });

  record(input: NewEvent): Promise<{ event: PluginEvent; created: boolean }> {
    return this.batches.submit(input.organizationId, input);
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
