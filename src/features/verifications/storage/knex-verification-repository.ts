/** Verifications on knex: hashes only; the check counter moves in one conditional UPDATE. */
import type { Database } from '../../../platform/database/database';
import type { Verification, VerificationRepository, VerificationStatus } from '../domain/verification';

interface VerificationRow {
  id: string;
  organization_id: string;
  channel: Verification['channel'];
  destination_hash: string;
  code_hash: string;
  status: VerificationStatus;
  attempts: number;
  run_id: string | null;
  livemode: boolean;
  created_at: Date;
  expires_at: Date;
  updated_at: Date;
}

const fromRow = (row: VerificationRow): Verification => ({
  id: row.id,
  organizationId: row.organization_id,
  channel: row.channel,
  destinationHash: row.destination_hash,
  codeHash: row.code_hash,
  status: row.status,
  attempts: Number(row.attempts),
  runId: row.run_id,
  livemode: Boolean(row.livemode),
  createdAt: new Date(row.created_at),
  expiresAt: new Date(row.expires_at),
  updatedAt: new Date(row.updated_at),
});

const KEPT_AFTER_EXPIRY_MS = 24 * 3600_000;

export class KnexVerificationRepository implements VerificationRepository {
  constructor(private readonly db: Database) {}

  async create(v: Verification): Promise<void> {
    await this.db.transaction(async (trx) => {
      // Verifications are kept a day past their expiry (support questions, the send limit), then pruned.
      await trx('hi_verifications')
        .where({ organization_id: v.organizationId })
        .where('expires_at', '<', new Date(v.createdAt.getTime() - KEPT_AFTER_EXPIRY_MS))
        .delete();
      await trx('hi_verifications')
        .where({ organization_id: v.organizationId, destination_hash: v.destinationHash, status: 'pending' })
        .update({ status: 'canceled', updated_at: v.createdAt });
      await trx('hi_verifications').insert({
        id: v.id,
        organization_id: v.organizationId,
        channel: v.channel,
        destination_hash: v.destinationHash,
        code_hash: v.codeHash,
        status: v.status,
        attempts: v.attempts,
        run_id: v.runId,
        livemode: v.livemode,
        created_at: v.createdAt,
        expires_at: v.expiresAt,
        updated_at: v.updatedAt,
      });
    });
  }

  async get(organizationId: string, id: string): Promise<Verification | undefined> {
    const row = await this.db<VerificationRow>('hi_verifications').where({ organization_id: organizationId, id }).first();
    return row ? fromRow(row) : undefined;
  }

  async latest(organizationId: string, destinationHash: string): Promise<Verification | undefined> {
    const row = await this.db<VerificationRow>('hi_verifications')
      .where({ organization_id: organizationId, destination_hash: destinationHash })
      .whereIn('status', ['pending', 'approved', 'max_attempts_reached'])
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .first();
    return row ? fromRow(row) : undefined;
  }

  async sentSince(organizationId: string, destinationHash: string, since: Date): Promise<Date[]> {
    const rows = await this.db('hi_verifications')
      .where({ organization_id: organizationId, destination_hash: destinationHash })
      .where('created_at', '>', since)
      .orderBy('created_at', 'asc')
      .select('created_at');
    return rows.map((r: { created_at: Date }) => new Date(r.created_at));
  }

  async countAttempt(organizationId: string, id: string, at: Date): Promise<Verification | undefined> {
    const [row] = await this.db<VerificationRow>('hi_verifications')
      .where({ organization_id: organizationId, id, status: 'pending' })
      .update({ attempts: this.db.raw('attempts + 1'), updated_at: at } as never)
      .returning('*');
    return row ? fromRow(row as VerificationRow) : undefined;
  }

  async settle(organizationId: string, id: string, status: VerificationStatus, at: Date, sent?: { runId: string; livemode: boolean }): Promise<void> {
    await this.db('hi_verifications')
      .where({ organization_id: organizationId, id })
      .whereIn('status', ['pending'])
      .update({ status, updated_at: at, ...(sent ? { run_id: sent.runId, livemode: sent.livemode } : {}) });
  }
}
