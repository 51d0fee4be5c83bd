/** hi_audit_events and hi_audit_heads. */
import { inject, injectable } from 'tsyringe';
import { newId } from '../../../kernel/ids';
import type { Database } from '../../../platform/database/database';
import { fromJson } from '../../../platform/database/json-column';
import { DATABASE } from '../../../platform/database/tokens';
import { eventHash } from '../domain/audit-chain';
import { GroupCommit } from '../../../kernel/group-commit';
import { DEPLOYMENT_CHAIN, GENESIS_HASH, type AuditEvent, type AuditEventInput, type AuditFilter, type AuditRepository } from '../domain/audit-event';

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

@injectable()
export class KnexAuditRepository implements AuditRepository {
  constructor(@inject(DATABASE) private readonly db: Database) {}

  /** Concurrent appends to one chain share a transaction (see GroupCommit): the chain's lock is its bottleneck. */
  private readonly appends = new GroupCommit<AuditEventInput, AuditEvent>((chain, inputs) => this.appendAll(chain, inputs));

  append(input: AuditEventInput): Promise<AuditEvent> {
    return this.appends.submit(input.organizationId ?? DEPLOYMENT_CHAIN, input);
  }

  /** Appends `inputs` in order to `chain`: one lock on its head, one statement, one commit. */
  private async appendAll(chain: string, inputs: AuditEventInput[]): Promise<AuditEvent[]> {
    return this.db.transaction(async (trx) => {
      const lockHead = () => trx('hi_audit_heads').where({ chain }).forUpdate().first();
      let head = await lockHead();
      if (!head) {
        // A chain's first event: create its head (a concurrent first writer may win), then lock it.
        await trx('hi_audit_heads').insert({ chain, last_sequence: 0, last_hash: GENESIS_HASH }).onConflict('chain').ignore();
        head = await lockHead();
      }
      const events: AuditEvent[] = [];
      let sequence = Number(head.last_sequence);
      let previousHash = head.last_hash as string;
      for (const input of inputs) {
        sequence += 1;
        const unhashed = { ...input, before: input.before ?? null, after: input.after ?? null, id: newId('aud'), chain, sequence, previousHash };
        const event: AuditEvent = { ...unhashed, hash: eventHash(unhashed) };
        events.push(event);
        previousHash = event.hash;
      }
      // One statement writes the events and moves the head, so the lock taken above is held
      // for one round trip and the commit.
      await trx
        .with('head', trx('hi_audit_heads').where({ chain }).update({ last_sequence: sequence, last_hash: previousHash }))
        .into('hi_audit_events')
        .insert(
          events.map((event) => ({
            id: event.id,
            chain,
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
          })),
        );
      return events;
    });
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

  async head(chain: string) {
    const row = await this.db('hi_audit_heads').where({ chain }).first();
    return row ? { lastSequence: Number(row.last_sequence), lastHash: row.last_hash as string } : undefined;
  }

  async chains(): Promise<string[]> {
    return (await this.db('hi_audit_heads').select('chain').orderBy('chain')).map((r: { chain: string }) => r.chain);
  }
}
