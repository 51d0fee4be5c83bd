/**
 * The CSV export (format `candidates.v1`, docs/candidate-exports.md): RFC 4180 via
 * csv-stringify, a header row, UTF-8, one row per application. Lists inside a cell are
 * joined with "; ". Cells a spreadsheet would run as a formula (= + - @, tab, CR) are
 * prefixed with ' (OWASP CSV injection).
 */
import { stringify } from 'csv-stringify/sync';
import type { ExportRecord } from './export-record';

export const CSV_COLUMNS = [
  'application_id',
  'listing_id',
  'status',
  'source',
  'applied_at',
  'profile_user_id',
  'candidate_name',
  'candidate_headline',
  'email',
  'profile_url',
  'total_years',
  'current_title',
  'current_company',
  'verified_skills',
  'verified_credentials',
  'positions',
] as const;

const defuse = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

export function csvCells(r: ExportRecord): string[] {
  const cells = [
    r.applicationId,
    r.listingId,
    r.status,
    r.source ?? '',
    r.appliedAt.toISOString(),
    r.profileUserId,
    r.candidateName,
    r.candidateHeadline ?? '',
    r.email ?? '',
    r.profileUrl,
    String(r.experience.total_years),
    r.experience.current_title ?? '',
    r.experience.current_company ?? '',
    r.skills.join('; '),
    r.credentials
      .filter((c) => c.verified)
      .map((c) => `${c.title} (${c.issuer})`)
      .join('; '),
    String(r.workHistory.length),
  ];
  return cells.map(defuse);
}

export const csvHeader = (): string => stringify([[...CSV_COLUMNS]], { record_delimiter: 'windows' });

export const csvRows = (records: readonly ExportRecord[]): string =>
  records.length === 0 ? '' : stringify(records.map(csvCells), { record_delimiter: 'windows' });
