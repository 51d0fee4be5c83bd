/** hi_audit_events and hi_audit_heads. */
import { GroupCommit } from '../../../kernel/group-commit';
import { inject, injectable } from 'tsyringe';
import { newId } from '../../../kernel/ids';
import type { Database } from '../../../platform/database/database';
import { fromJson } from '../../../platform/database/json-column';
import { DATABASE } from '../../../platform/database/tokens';
import { eventHash } from '../domain/audit-chain';
import {
  AUDIT_PRUNED_ACTION,
  DEPLOYMENT_CHAIN,
  GENESIS_HASH,
  type AuditEvent,
  type AuditEventInput,
  type AuditFilter,
  type AuditHead,
  type AuditRepository,
} from '../domain/audit-event';

type Row = Record<string, any>;

function fromRow(row: Row): AuditEvent {
  return {
    id: row.id,
    chain: row.chain,
    sequence: Number(row.sequence),
    organizationId: row.organization_id,
    actorType: row.actor_type,
    actor: row.actor,
    ip: row.ip,
    requestId: row.request_id,
    action: row.action,
    method: row.method,
    target: row.target,
    status: Number(row.status),
    before: row.before == null ? null : fromJson(row.before),
    after: row.after == null ? null : fromJson(row.after),
    at: new Date(row.created_at),
    previousHash: row.previous_hash,
    hash: row.hash,
  };
}

function toRow(event: AuditEvent): Row {
  return {
    id: event.id,
    chain: event.chain,
    sequence: event.sequence,
    organization_id: event.organizationId,
    actor_type: event.actorType,
    actor: event.actor,
    ip: event.ip,
    request_id: event.requestId,
    action: event.action,
    method: event.method,
    target: event.target,
    status: event.status,
    before: JSON.stringify(event.before),
    after: JSON.stringify(event.after),
    created_at: event.at,
    previous_hash: event.previousHash,
    hash: event.hash,
  };
}

interface PendingRow {
  id: string;
  chain: string;
  event: string;
  created_at: Date;
}

const chainOf = (input: AuditEventInput) => input.organizationId ?? DEPLOYMENT_CHAIN;

/** A pending row's event, as recorded (its time travels as ISO text in the jsonb). */
function pendingInput(row: Row): AuditEventInput {
  const event = fromJson<Omit<AuditEventInput, 'at'> & { at: string }>(row.event);
  return { ...event, at: new Date(event.at) };
}

@injectable()
export class KnexAuditRepository implements AuditRepository {
  /** Chains whose head row this process has seen: its insert is skipped from then on. */
  private readonly knownHeads = new Set<string>();
  /** Pending rows recorded concurrently (every hook call, every mutating request) share one INSERT; each caller returns once its row is in. */
  private readonly pending = new GroupCommit<PendingRow, void>(async (_, rows) => {
    await this.db('hi_audit_pending').insert(rows);
    return rows.map(() => undefined);
  });

  constructor(@inject(DATABASE) private readonly db: Database) {}

  async append(input: AuditEventInput): Promise<AuditEvent> {
    const chain = chainOf(input);
    return this.db.transaction(async (trx) => (await this.appendLocked(trx, chain, [input]))[0]!);
  }

  async record(input: AuditEventInput): Promise<void> {
    const event = { ...input, before: input.before ?? null, after: input.after ?? null, at: input.at.toISOString() };
    await this.pending.submit('pending', { id: newId('aud'), chain: chainOf(input), event: JSON.stringify(event), created_at: input.at });
  }

  async chainPending(chain: string, limit: number): Promise<number> {
    return this.db.transaction(async (trx) => {
      await this.lockHead(trx, chain);
      // Taken under the head lock: another process chaining the same rows waited for it and finds them gone.
      const rows: Row[] = await trx('hi_audit_pending')
        .whereIn(
          'id',
          trx('hi_audit_pending')
            .select('id')
            .where({ chain })
            .orderBy([{ column: 'created_at' }, { column: 'id' }])
            .limit(limit),
        )
        .delete()
        .returning(['id', 'event', 'created_at']);
      if (rows.length === 0) return 0;
      rows.sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      await this.appendLocked(
        trx,
        chain,
        rows.map((row) => pendingInput(row)),
        rows.map((row) => row.id as string),
        true,
      );
      return rows.length;
    });
  }

  async pendingChains(before: Date): Promise<string[]> {
    return (await this.db('hi_audit_pending').distinct('chain').where('created_at', '<', before)).map((r: { chain: string }) => r.chain);
  }

  async prune(chain: string, cutoff: Date, at: Date): Promise<number> {
    return this.db.transaction(async (trx) => {
      const head = await trx('hi_audit_heads').where({ chain }).forUpdate().first();
      if (!head) return 0;
      // A prefix of the chain: everything before the first event kept (events are chained about in time order, not exactly).
      const kept = await trx('hi_audit_events').where({ chain }).where('created_at', '>=', cutoff).min({ first: 'sequence' }).first();
      const through = kept?.first != null ? Number(kept.first) - 1 : Number(head.last_sequence);
      if (through <= Number(head.anchor_sequence)) return 0;
      const last = await trx('hi_audit_events').where({ chain, sequence: through }).first('hash');
      if (!last) return 0;
      const removed = trx('hi_audit_events').where({ chain }).where('sequence', '<=', through);
      // Counted rather than taken from delete()'s result, which a wrapped client may not pass on.
      const pruned = Number((await removed.clone().count({ n: '*' }).first())?.n ?? 0);
      await removed.delete();
      await trx('hi_audit_heads').where({ chain }).update({ anchor_sequence: through, anchor_hash: last.hash });
      await this.appendLocked(trx, chain, [
        {
          organizationId: chain === DEPLOYMENT_CHAIN ? null : chain,
          actorType: 'system',
          actor: 'retention',
          ip: null,
          requestId: null,
          action: AUDIT_PRUNED_ACTION,
          method: 'SYSTEM',
          target: 'audit_events',
          status: 200,
          before: null,
          after: { pruned_events: pruned, recorded_before: cutoff.toISOString(), through_sequence: through, through_hash: last.hash },
          at,
        },
      ]);
      return pruned;
    });
  }

  /** Creates the chain's head row the first time, then locks it. */
  private async lockHead(trx: Database, chain: string): Promise<Row> {
    if (!this.knownHeads.has(chain)) {
      await trx('hi_audit_heads').insert({ chain, last_sequence: 0, last_hash: GENESIS_HASH }).onConflict('chain').ignore();
      this.knownHeads.add(chain);
    }
    const head = await trx('hi_audit_heads').where({ chain }).forUpdate().first();
    if (head) return head;
    // The row went away since (a test emptied the table): create it again.
    this.knownHeads.delete(chain);
    return this.lockHead(trx, chain);
  }

  /** Chains the events after the head (locked here unless `locked`), in one multi-row insert, and moves the head. */
  private async appendLocked(trx: Database, chain: string, inputs: AuditEventInput[], ids?: string[], locked = false): Promise<AuditEvent[]> {
    const head = locked ? await trx('hi_audit_heads').where({ chain }).first() : await this.lockHead(trx, chain);
    let sequence = Number(head.last_sequence);
    let previousHash = head.last_hash as string;
    const events = inputs.map((input, i) => {
      const unhashed = {
        ...input,
        before: input.before ?? null,
        after: input.after ?? null,
        id: ids?.[i] ?? newId('aud'),
        chain,
        sequence: ++sequence,
        previousHash,
      };
      const event: AuditEvent = { ...unhashed, hash: eventHash(unhashed) };
      previousHash = event.hash;
      return event;
    });
    await trx('hi_audit_events').insert(events.map(toRow));
    await trx('hi_audit_heads').where({ chain }).update({ last_sequence: sequence, last_hash: previousHash });
    return events;
  }

  async list(filter: AuditFilter) {
    let query = this.db('hi_audit_events').orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
    if (filter.organizationId) query = query.where({ organization_id: filter.organizationId });
    if (filter.action) query = query.where({ action: filter.action });
    if (filter.actor) query = query.where({ actor: filter.actor });
    if (filter.createdGte) query = query.where('created_at', '>=', filter.createdGte);
    if (filter.createdLt) query = query.where('created_at', '<', filter.createdLt);
    if (filter.startingAfter) {
      const cursor = await this.db('hi_audit_events').where({ id: filter.startingAfter }).first();
      if (!cursor) return { data: [], hasMore: false };
      query = query.where((q) =>
        q.where('created_at', '<', cursor.created_at).orWhere((q2) => q2.where('created_at', cursor.created_at).andWhere('id', '<', cursor.id)),
      );
    }
    const rows = await query.limit(filter.limit + 1);
    return { data: rows.slice(0, filter.limit).map(fromRow), hasMore: rows.length > filter.limit };
  }

  async chain(chain: string): Promise<AuditEvent[]> {
    return (await this.db('hi_audit_events').where({ chain }).orderBy('sequence')).map(fromRow);
  }

  async head(chain: string): Promise<AuditHead | undefined> {
    const row = await this.db('hi_audit_heads').where({ chain }).first();
    return row
      ? { lastSequence: Number(row.last_sequence), lastHash: row.last_hash, anchorSequence: Number(row.anchor_sequence), anchorHash: row.anchor_hash }
      : undefined;
  }

  async chains(): Promise<string[]> {
    return (await this.db('hi_audit_heads').select('chain').orderBy('chain')).map((r: { chain: string }) => r.chain);
  }
}
