/**
 * The change file for payroll (format `change.v1`, documented in docs/hr-payroll-payouts.md):
 * one row per change the host reported on one UTC day (an update, a rehire, a termination), in
 * the order they were recorded, with the day it takes effect, the reason, the fields that
 * changed, the person as payroll now knows them and the pay rate before and after in integer
 * minor units. RFC 4180, UTF-8, CRLF, formula-like cells neutralized, as new_hire.v1.
 */
import { stringify } from 'csv-stringify/sync';
import type { PayrollRecord } from './employee-roster';
import { neutralized, splitName } from './new-hire-file';

export const CHANGE_FORMAT = 'change.v1';

export const CHANGE_COLUMNS = [
  'format',
  'change_id',
  'employee_external_id',
  'change_type',
  'effective_date',
  'reason',
  'changed_fields',
  'first_name',
  'last_name',
  'email',
  'job_title',
  'department',
  'start_date',
  'employment_type',
  'old_pay_rate_cents',
  'old_pay_currency',
  'old_pay_per',
  'new_pay_rate_cents',
  'new_pay_currency',
  'new_pay_per',
  'recorded_at',
] as const;

export function changesCsv(records: readonly PayrollRecord[]): string {
  const rows = records.map((r) => {
    const { first, last } = splitName(r.name ?? '');
    return [
      CHANGE_FORMAT,
      r.id,
      r.candidateId,
      r.kind,
      r.effectiveDate,
      r.reason ?? '',
      r.changedFields.join(' '),
      first,
      last,
      r.email ?? '',
      r.jobTitle ?? '',
      r.department ?? '',
      r.startDate ?? '',
      r.employmentType ?? '',
      r.oldPayRate ? String(r.oldPayRate.amount) : '',
      r.oldPayRate?.currency ?? '',
      r.oldPayRate?.per ?? '',
      r.newPayRate ? String(r.newPayRate.amount) : '',
      r.newPayRate?.currency ?? '',
      r.newPayRate?.per ?? '',
      r.recordedAt.toISOString(),
    ].map(neutralized);
  });
  return stringify([[...CHANGE_COLUMNS], ...rows], { record_delimiter: 'windows' });
}
