/**
 * Applications in export order, read in keyset pages of 1,000 over (profile_user_id, seq)
 * (the hi_profile_applications_export_order index): each page is one short query, so a
 * 100,000-row export holds one page at a time, never a transaction or connection between
 * pages, and works the same on PostgreSQL and PGlite.
 */
import type { Knex } from 'knex';
import { fromJson } from '../../../platform/database/json-column';
import type { ExperienceSummary } from '../../profiles/domain/experience-summary';
import type { ImportedCredential } from '../../profiles/domain/profile-snapshot';
import type { WorkHistoryEntry } from '../../profiles/domain/work-history';
import type { ExportFilters, ExportRecord, ExportSource } from '../domain/export-record';

const PAGE = 1000;

export class KnexExportSource implements ExportSource {
  constructor(private readonly db: Knex) {}

  async *records(organizationId: string, filters: ExportFilters): AsyncIterable<ExportRecord> {
    let after: { profileUserId: string; seq: string } | undefined;
    for (;;) {
      let query = this.db('hi_profile_applications as a')
        .leftJoin('hi_sourcing_consents as c', (join) =>
          join.on('c.organization_id', 'a.organization_id').andOn('c.profile_user_id', 'a.profile_user_id').andOnNull('c.withdrawn_at'),
        )
        .select(
          'a.id',
          'a.seq',
          'a.listing_id',
          'a.status',
          'a.source',
          'a.created_at',
          'a.profile_user_id',
          'a.candidate_name',
          'a.candidate_headline',
          'a.profile_url',
          'a.imported_skills',
          'a.imported_credentials',
          'a.experience_summary',
          'a.work_history',
          // The talent-pool consent's email, else the application's own contact (a profile application's or a board applicant's).
          this.db.raw('coalesce(c.email, a.contact_email) as email'),
        )
        .where('a.organization_id', organizationId)
        .orderBy([
          { column: 'a.profile_user_id', order: 'asc' },
          { column: 'a.seq', order: 'asc' },
        ])
        .limit(PAGE);
      if (filters.listingId !== undefined) query = query.where('a.listing_id', filters.listingId);
      if (filters.status !== undefined) query = query.where('a.status', filters.status);
      if (filters.since !== undefined) query = query.where('a.created_at', '>=', filters.since);
      if (filters.before !== undefined) query = query.where('a.created_at', '<', filters.before);
      if (after) query = query.whereRaw('(a.profile_user_id, a.seq) > (?, ?)', [after.profileUserId, after.seq]);
      const rows: Record<string, any>[] = await query;
      for (const row of rows) yield toRecord(row);
      if (rows.length < PAGE) return;
      const last = rows[rows.length - 1]!;
      after = { profileUserId: last.profile_user_id, seq: String(last.seq) };
    }
  }
}

function toRecord(row: Record<string, any>): ExportRecord {
  return {
    applicationId: row.id,
    listingId: row.listing_id,
    status: row.status,
    source: row.source ?? null,
    appliedAt: new Date(row.created_at),
    profileUserId: row.profile_user_id,
    candidateName: row.candidate_name,
    candidateHeadline: row.candidate_headline ?? null,
    email: row.email ?? null,
    profileUrl: row.profile_url,
    skills: fromJson<string[]>(row.imported_skills) ?? [],
    credentials: fromJson<ImportedCredential[]>(row.imported_credentials) ?? [],
    experience: fromJson<ExperienceSummary>(row.experience_summary),
    workHistory: fromJson<WorkHistoryEntry[]>(row.work_history) ?? [],
  };
}
