import type { Knex } from 'knex';
import type { SyncLedger } from '../domain/sync-ledger';

/** One upsert: the row lock of ON CONFLICT serializes concurrent reports of one person. */
export class KnexSyncLedger implements SyncLedger {
  constructor(private readonly db: Knex) {}

  async advance(report: { organizationId: string; sink: string; candidateId: string; email: string | null; digest: string }, at: Date): Promise<number> {
    const { rows } = await this.db.raw<{ rows: { revision: number }[] }>(
      `insert into hi_hook_sync_states as s (organization_id, sink, candidate_id, email, digest, revision, updated_at)
       values (?, ?, ?, ?, ?, 1, ?)
       on conflict (organization_id, sink, candidate_id) do update set
         revision = case when s.digest = excluded.digest then s.revision else s.revision + 1 end,
         updated_at = case when s.digest = excluded.digest then s.updated_at else excluded.updated_at end,
         email = coalesce(excluded.email, s.email),
         digest = excluded.digest
       returning revision`,
      [report.organizationId, report.sink, report.candidateId, report.email, report.digest, at],
    );
    return rows[0]!.revision;
  }
}
