/** hi_audit_events and hi_audit_heads. */
import { inject, injectable } from 'tsyringe';
import { newId } from '../../../kernel/ids';
import type { Database } from '../../../platform/database/database';
import { fromJson } from '../../../platform/database/json-column';
import { DATABASE } from '../../../platform/database/tokens';
import { eventHash } from '../domain/audit-chain';
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

  async append(input: AuditEventInput): Promise<AuditEvent> {
    const chain = input.organizationId ?? DEPLOYMENT_CHAIN;
    return this.db.transaction(async (trx) => {
      await trx('hi_audit_heads').insert({ chain, last_sequence: 0, last_hash: GENESIS_HASH }).onConflict('chain').ignore();
      const head = await trx('hi_audit_heads').where({ chain }).forUpdate().first();
      const unhashed = {
        ...input,
        before: input.before ?? null,
        after: input.after ?? null,
        id: newId('aud'),
        chain,
        sequence: Number(head.last_sequence) + 1,
        previousHash: head.last_hash as string,
      };
      const event: AuditEvent = { ...unhashed, hash: eventHash(unhashed) };
      await trx('hi_audit_events').insert({
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
      });
      await trx('hi_audit_heads').where({ chain }).update({ last_sequence: event.sequence, last_hash: event.hash });
      return event;
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
