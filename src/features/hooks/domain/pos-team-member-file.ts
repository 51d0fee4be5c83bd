/**
 * The `pos_team_member.v1` file (documented in docs/hr-payroll-payouts.md): a CSV of team
 * members for a point of sale's employee import, RFC 4180 quoting, a header row, UTF-8, CRLF.
 * The pos-csv connector writes one file per change (a hire, an update, a termination); the
 * download (POST /v1/pos/team_member_exports) writes every current team member, one row each,
 * for a POS whose import is a web page. The wage is integer minor units, as the POS imports
 * money without a decimal point's locale. Cells a spreadsheet would run as a formula (= + - @,
 * tab, CR) are prefixed with ' (OWASP CSV injection), as in the payroll files; an E.164 phone
 * number (+ and digits only) is left as it is.
 */
import { stringify } from 'csv-stringify/sync';
import { neutralized } from '../../payroll/domain/new-hire-file';
import type { PosDeactivation, PosTeamMember } from './connectors';

export const POS_TEAM_MEMBER_FORMAT = 'pos_team_member.v1';

export const POS_TEAM_MEMBER_COLUMNS = [
  'format',
  'external_id',
  'change',
  'status',
  'first_name',
  'last_name',
  'email',
  'phone',
  'job_title',
  'wage_cents',
  'wage_currency',
  'wage_per',
] as const;

/** An E.164 number starts with + but is digits only: no formula can hide in it, and the POS needs its +. */
const E164 = /^\+[1-9]\d{6,14}$/;
const cell = (value: string) => (E164.test(value) ? value : neutralized(value));

export type TeamMemberRow = Pick<PosTeamMember, 'referenceId' | 'givenName' | 'familyName' | 'email' | 'phone' | 'jobTitle' | 'wage'>;

/** A hire or an update: the whole team member, active (an update of a terminated member reactivates it). */
const upsertRow = (m: TeamMemberRow) => [
  POS_TEAM_MEMBER_FORMAT,
  m.referenceId,
  'upsert',
  'active',
  m.givenName,
  m.familyName,
  m.email ?? '',
  m.phone ?? '',
  m.jobTitle ?? '',
  m.wage ? String(m.wage.amount) : '',
  m.wage?.currency ?? '',
  m.wage?.per ?? '',
];

/** A termination: the external id and the inactive status; the POS keeps the rest of the member as it is. */
const deactivationRow = (referenceId: string) => [POS_TEAM_MEMBER_FORMAT, referenceId, 'deactivate', 'inactive', '', '', '', '', '', '', '', ''];

const csv = (rows: string[][]) => stringify([[...POS_TEAM_MEMBER_COLUMNS], ...rows.map((row) => row.map(cell))], { record_delimiter: 'windows' });

export function teamMemberCsv(m: PosTeamMember): string {
  return csv([upsertRow(m)]);
}

export function deactivationCsv(r: PosDeactivation): string {
  return csv([deactivationRow(r.referenceId)]);
}

/** Many team members in one file: active ones as upserts, terminated ones (when asked for) as deactivations. */
export function teamMembersCsv(members: readonly (TeamMemberRow & { active: boolean })[]): string {
  return csv(members.map((m) => (m.active ? upsertRow(m) : deactivationRow(m.referenceId))));
}
