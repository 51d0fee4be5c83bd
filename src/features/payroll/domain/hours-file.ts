/**
 * The worked-hours batch (format `hours.v1`, documented in docs/hr-payroll-payouts.md): one row
 * per timesheet approved on the batch's day (UTC), worked time in whole minutes split by
 * overtime class, pay in integer cents. RFC 4180, UTF-8, CRLF, formula-like cells neutralized.
 */
import { stringify } from 'csv-stringify/sync';
import type { ApprovedTimesheet } from '../../timesheets/domain/ports';
import { neutralized } from './new-hire-file';

export const HOURS_FORMAT = 'hours.v1';

export const HOURS_COLUMNS = [
  'format',
  'employee_external_id',
  'worker_name',
  'timesheet_id',
  'client_company_id',
  'period_start',
  'period_end',
  'regular_minutes',
  'overtime_minutes',
  'double_time_minutes',
  'pay_rate_cents',
  'pay_cents',
  'currency',
  'approved_at',
] as const;

export function hoursCsv(timesheets: readonly ApprovedTimesheet[]): string {
  const rows = timesheets.map((t) =>
    [
      HOURS_FORMAT,
      t.workerId,
      t.workerName,
      t.timesheetId,
      t.clientCompanyId,
      t.periodStart,
      t.periodEnd,
      String(t.regularMinutes),
      String(t.overtimeMinutes),
      String(t.doubleTimeMinutes),
      String(t.payRateCents),
      String(t.payCents),
      t.currency,
      t.approvedAt.toISOString(),
    ].map(neutralized),
  );
  return stringify([[...HOURS_COLUMNS], ...rows], { record_delimiter: 'windows' });
}
