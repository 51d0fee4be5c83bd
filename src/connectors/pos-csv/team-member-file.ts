/**
 * The `pos_team_member.v1` file (documented in docs/hr-payroll-payouts.md): one CSV per change
 * of a team member (a hire, an update, a termination), RFC 4180 quoting, a header row, UTF-8,
 * CRLF. The wage is integer minor units, as the POS imports money without a decimal point's
 * locale. Cells a spreadsheet would run as a formula (= + - @, tab, CR) are prefixed with '
 * (OWASP CSV injection), as in the payroll files; an E.164 phone number (+ and digits only) is
 * left as it is.
 */
import { stringify } from 'csv-stringify/sync';
import type { PosDeactivation, PosTeamMember } from '../../features/hooks/domain/connectors';
import { neutralized } from '../../features/payroll/domain/new-hire-file';
import { POS_TEAM_MEMBER_FORMAT } from './settings';

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

const csv = (row: string[]) => stringify([[...POS_TEAM_MEMBER_COLUMNS], row.map(cell)], { record_delimiter: 'windows' });

/** A hire or an update: the whole team member, active (an update of a terminated member reactivates it). */
export function teamMemberCsv(m: PosTeamMember): string {
  return csv([
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
  ]);
}

/** A termination: the external id and the inactive status; the POS keeps the rest of the member as it is. */
export function deactivationCsv(r: PosDeactivation): string {
  return csv([POS_TEAM_MEMBER_FORMAT, r.referenceId, 'deactivate', 'inactive', '', '', '', '', '', '', '', '']);
}
