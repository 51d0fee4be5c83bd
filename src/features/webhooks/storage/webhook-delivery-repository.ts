/**
 * Webhook deliveries on knex. Every write that needs a job writes its outbox message in
 * the same transaction, and names the job by the row's `job_seq`, so a job is never lost
 * and a superseded one finds itself stale.
 */
import { inject, injectable } from 'tsyringe';
import type { Knex } from 'knex';
import { GroupCommit } from '../../../kernel/group-commit';
import { OUTBOX_NOTIFIER, type OutboxNotifier } from '../../../kernel/outbox';
import type { PluginEvent } from '../../events/domain/event';
import { fromJson } from '../../../platform/database/json-column';
import {
  deliveryJobId,
  WEBHOOK_DELIVERY_QUEUE,
  type AttemptOutcome,
  type ClaimedDelivery,
  type DeliveryStatus,
  type WebhookDelivery,
  type WebhookDeliveryRepository,
} from '../domain/webhook-delivery';
import type { Database } from '../../../platform/database/database';
import { writeOutbox } from '../../events/storage/outbox-writer';
import { DATABASE } from '../../../platform/database/tokens';
import { WEBHOOK_ENDPOINT_REPOSITORY } from '../domain/webhook-endpoint';
import type { EndpointRow, KnexWebhookEndpointRepository } from './webhook-endpoint-repository';

interface DeliveryRow {
  id: string;
  organization_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: number;
  job_seq: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  window_started_at: Date;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
}

const date = (value: Date | null) => (value ? new Date(value) : null);

const fromRow = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  organizationId: row.organization_id,
  endpointId: row.endpoint_id,
  eventId: row.event_id,
  eventType: row.event_type,
  status: row.status,
  attempts: row.attempts,
  jobSeq: row.job_seq,
  lastStatusCode: row.last_status_code,
  lastError: row.last_error,
  nextAttemptAt: date(row.next_attempt_at),
  windowStartedAt: new Date(row.window_started_at),
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
  completedAt: date(row.completed_at),
});

const jobMessage = (deliveryId: string, jobSeq: number, delayMs = 0) => ({
  queue: WEBHOOK_DELIVERY_QUEUE,
  name: 'deliver',
  jobId: deliveryJobId(deliveryId, jobSeq),
  data: { deliveryId, jobSeq },
  delayMs,
});

interface StepRow extends DeliveryRow {
  succeeded_ids: string[];
  event_sequence: string | number | null;
  event_data: unknown;
  event_created_at: Date | null;
  endpoint_row: EndpointRow | null;
}

interface Claim {
  deliveryId: string;
  jobSeq: number;
  until: Date;
  now: Date;
}

interface Success {
  deliveryId: string;
  jobSeq: number;
  statusCode: number;
  at: Date;
}

type Step = { kind: 'claim'; claim: Claim } | { kind: 'success'; success: Success };

/**
 * One statement per batch records the successes of finished attempts and claims the
 * deliveries of starting ones (a delivery is claimed before it can succeed, so one never
 * appears twice in a batch; a stalled job's copy that does is stale either way). It binds
 * one array per column (`unnest`), so its text is the same for every batch size: a named prepared statement, parsed and planned once per connection
 * instead of once per batch. Columns are named, never `*` (the endpoint comes as one jsonb
 * value): a prepared statement whose result type changed with a migration would fail.
 */
const STEP_BATCH = {
  name: 'hi_webhook_step_v1',
  sql: `WITH cv AS (SELECT * FROM unnest(?::text[], ?::int[], ?::timestamptz[]) AS v(id, job_seq, until)),
       sv AS (SELECT * FROM unnest(?::text[], ?::int[], ?::int[], ?::timestamptz[]) AS v(id, job_seq, status_code, at)),
       claimed AS (
         UPDATE hi_webhook_deliveries d SET locked_until = cv.until FROM cv
         WHERE d.id = cv.id AND d.job_seq = cv.job_seq AND d.status = 'pending'
         RETURNING d.id, d.organization_id, d.endpoint_id, d.event_id, d.status, d.attempts, d.job_seq, d.last_status_code, d.last_error,
                   d.next_attempt_at, d.window_started_at, d.created_at, d.updated_at, d.completed_at
       ),
       delivered AS (
         UPDATE hi_webhook_deliveries d
         SET status = 'succeeded', attempts = d.attempts + 1, last_status_code = sv.status_code, last_error = NULL,
             next_attempt_at = NULL, locked_until = NULL, completed_at = sv.at, updated_at = sv.at
         FROM sv WHERE d.id = sv.id AND d.job_seq = sv.job_seq AND d.status = 'pending'
         RETURNING d.id, d.endpoint_id, sv.at
       ),
       stamped AS (
         UPDATE hi_webhook_endpoints w SET last_success_at = m.at
         FROM (SELECT endpoint_id, max(at) AS at FROM delivered GROUP BY endpoint_id) m
         WHERE w.id = m.endpoint_id AND (w.last_success_at IS NULL OR w.last_success_at < m.at)
       ),
       succeeded AS (SELECT coalesce(array_agg(id), '{}') AS ids FROM delivered)
       SELECT s.ids AS succeeded_ids, c.*, e.type AS event_type, e.sequence AS event_sequence, e.data AS event_data,
              e.created_at AS event_created_at, to_jsonb(w) AS endpoint_row
       FROM succeeded s LEFT JOIN (
         claimed c LEFT JOIN hi_events e ON e.id = c.event_id LEFT JOIN hi_webhook_endpoints w ON w.id = c.endpoint_id
       ) ON true`,
};

/** A batch's column as one array binding. */
const column = <T>(items: readonly T[], pick: (item: T) => unknown) => items.map(pick) as never;

@injectable()
export class KnexWebhookDeliveryRepository implements WebhookDeliveryRepository {
  /**
   * The hot path of every delivery is a claim (with the event and the endpoint) and a success;
   * those of concurrent deliveries are written together, claims and successes in one statement per batch.
   */
  private readonly steps = new GroupCommit<Step, ClaimedDelivery | undefined | boolean>((_, items) => this.stepBatch(items));

  constructor(
    @inject(DATABASE) private readonly db: Database,
    @inject(OUTBOX_NOTIFIER) private readonly outbox: OutboxNotifier,
    @inject(WEBHOOK_ENDPOINT_REPOSITORY) private readonly endpoints: KnexWebhookEndpointRepository,
  ) {}

  private select(db: Knex | Knex.Transaction = this.db) {
    return db('hi_webhook_deliveries as d').join('hi_events as e', 'e.id', 'd.event_id').select<DeliveryRow[]>('d.*', 'e.type as event_type');
  }

  async find(organizationId: string, deliveryId: string) {
    const row = await this.select().where({ 'd.id': deliveryId, 'd.organization_id': organizationId }).first();
    return row ? fromRow(row) : undefined;
  }

  async findById(deliveryId: string) {
    const row = await this.select().where({ 'd.id': deliveryId }).first();
    return row ? fromRow(row) : undefined;
  }

  async listForEndpoint(organizationId: string, endpointId: string, options: { limit: number; startingAfter?: string; status?: DeliveryStatus }) {
    let query = this.select()
      .where({ 'd.organization_id': organizationId, 'd.endpoint_id': endpointId })
      .orderBy('d.seq', 'desc')
      .limit(options.limit + 1);
    if (options.status) query = query.where('d.status', options.status);
    if (options.startingAfter) {
      query = query.where('d.seq', '<', this.db('hi_webhook_deliveries').select('seq').where({ id: options.startingAfter, organization_id: organizationId }));
    }
    const rows = await query;
    return { data: rows.slice(0, options.limit).map(fromRow), hasMore: rows.length > options.limit };
  }

  claim(deliveryId: string, jobSeq: number, until: Date, now: Date): Promise<ClaimedDelivery | undefined> {
    return this.steps.submit('step', { kind: 'claim', claim: { deliveryId, jobSeq, until, now } }) as Promise<ClaimedDelivery | undefined>;
  }

  /**
   * A batch in one statement: each success answers whether it was recorded, each claim its
   * delivery with the event and the endpoint (undefined: stale or finished).
   */
  private async stepBatch(items: Step[]): Promise<(ClaimedDelivery | undefined | boolean)[]> {
    const claims = items.flatMap((i) => (i.kind === 'claim' ? [i.claim] : []));
    const successes = items.flatMap((i) => (i.kind === 'success' ? [i.success] : []));
    const { rows } = (await this.db
      .raw(STEP_BATCH.sql, [
        column(claims, (c) => c.deliveryId),
        column(claims, (c) => c.jobSeq),
        column(claims, (c) => c.until.toISOString()),
        column(successes, (s) => s.deliveryId),
        column(successes, (s) => s.jobSeq),
        column(successes, (s) => s.statusCode),
        column(successes, (s) => s.at.toISOString()),
      ])
      .options({ name: STEP_BATCH.name })) as { rows: StepRow[] };
    // At least one row (the successes' ids); one per claimed delivery.
    const succeeded = new Set(rows[0]?.succeeded_ids ?? []);
    const claimed = new Map(rows.filter((row) => row.id !== null).map((row) => [row.id, row]));
    return items.map((item) =>
      item.kind === 'success' ? succeeded.has(item.success.deliveryId) : this.claimed(claimed.get(item.claim.deliveryId), item.claim),
    );
  }

  private claimed(row: StepRow | undefined, claim: Claim): ClaimedDelivery | undefined {
    if (!row) return undefined;
    const event: PluginEvent | undefined =
      row.event_created_at === null
        ? undefined
        : {
            id: row.event_id,
            organizationId: row.organization_id,
            sequence: Number(row.event_sequence),
            type: row.event_type,
            data: fromJson<Record<string, unknown>>(row.event_data),
            createdAt: new Date(row.event_created_at),
          };
    return { delivery: fromRow(row), event, target: row.endpoint_row ? this.endpoints.deliveryTarget(row.endpoint_row, claim.now) : undefined };
  }

  async recordAttempt(deliveryId: string, jobSeq: number, outcome: AttemptOutcome, at: Date): Promise<boolean> {
    if (outcome.kind === 'succeeded')
      return this.steps.submit('step', { kind: 'success', success: { deliveryId, jobSeq, statusCode: outcome.statusCode, at } }) as Promise<boolean>;
    const done = await this.db.transaction(async (trx) => {
      const base = { updated_at: at, locked_until: null, attempts: trx.raw('attempts + 1') } as Record<string, unknown>;
      let patch: Record<string, unknown>;
      switch (outcome.kind) {
        case 'failed':
          patch = { ...base, status: 'failed', last_status_code: outcome.statusCode, last_error: outcome.error, next_attempt_at: null, completed_at: at };
          break;
        case 'canceled':
          // Nothing was sent: the attempt does not count.
          patch = { updated_at: at, locked_until: null, status: 'canceled', last_error: outcome.error, next_attempt_at: null, completed_at: at };
          break;
        case 'retry':
          patch = { ...base, last_status_code: outcome.statusCode, last_error: outcome.error, next_attempt_at: outcome.nextAttemptAt, job_seq: jobSeq + 1 };
          break;
      }
      const rows = await trx('hi_webhook_deliveries').where({ id: deliveryId, job_seq: jobSeq, status: 'pending' }).update(patch).returning('id');
      if (rows.length === 0) return false;
      if (outcome.kind === 'retry') await writeOutbox(trx, [jobMessage(deliveryId, jobSeq + 1, Math.max(0, outcome.nextAttemptAt.getTime() - at.getTime()))]);
      return true;
    });
    if (done && outcome.kind === 'retry') this.outbox.nudge();
    return done;
  }

  async requeue(deliveryId: string, at: Date): Promise<WebhookDelivery | undefined> {
    const requeued = await this.db.transaction(async (trx) => {
      const rows = await trx('hi_webhook_deliveries')
        .where({ id: deliveryId })
        .update({
          status: 'pending',
          job_seq: trx.raw('job_seq + 1'),
          next_attempt_at: at,
          window_started_at: at,
          locked_until: null,
          completed_at: null,
          updated_at: at,
        })
        .returning(['id', 'job_seq']);
      if (rows.length === 0) return false;
      await writeOutbox(trx, [jobMessage(deliveryId, Number(rows[0].job_seq))]);
      return true;
    });
    if (!requeued) return undefined;
    this.outbox.nudge();
    return this.findById(deliveryId);
  }

  async dueButNotQueued(now: Date, graceMs: number, limit: number): Promise<WebhookDelivery[]> {
    const rows = await this.select()
      .where('d.status', 'pending')
      .where('d.next_attempt_at', '<', new Date(now.getTime() - graceMs))
      .where((q) => q.whereNull('d.locked_until').orWhere('d.locked_until', '<', now))
      // A job still waiting in the outbox (Redis down) is not lost, only delayed.
      .whereNotExists(
        this.db('hi_outbox as o')
          .select(this.db.raw('1'))
          .whereNull('o.dispatched_at')
          .where('o.queue', WEBHOOK_DELIVERY_QUEUE)
          .whereRaw(`o.job_id = 'webhook-' || d.id || '-' || d.job_seq`),
      )
      .orderBy('d.next_attempt_at')
      .limit(limit);
    return rows.map(fromRow);
  }

  /**
   * Moves the delivery to a new job (the sweep): the old job, if it ever runs, is stale. Not
   * while a job has it claimed (the sweep read it before the claim): that job is sending it,
   * and its outcome would be dropped while the new job sent it again. The new job is due
   * now, so the sweep gives it the whole grace before it counts as lost too.
   */
  async reenqueue(deliveryId: string, jobSeq: number, at: Date): Promise<boolean> {
    const done = await this.db.transaction(async (trx) => {
      const rows = await trx('hi_webhook_deliveries')
        .where({ id: deliveryId, job_seq: jobSeq, status: 'pending' })
        .where((q) => q.whereNull('locked_until').orWhere('locked_until', '<', at))
        .update({ job_seq: jobSeq + 1, next_attempt_at: at, updated_at: at })
        .returning('id');
      if (rows.length === 0) return false;
      await writeOutbox(trx, [jobMessage(deliveryId, jobSeq + 1)]);
      return true;
    });
    if (done) this.outbox.nudge();
    return done;
  }

  async cancelPending(endpointId: string, reason: string, at: Date): Promise<number> {
    const rows = await this.db('hi_webhook_deliveries')
      .where({ endpoint_id: endpointId, status: 'pending' })
      .update({ status: 'canceled', last_error: reason, next_attempt_at: null, completed_at: at, updated_at: at })
      .returning('id');
    return rows.length;
  }
}
