/**
 * The contractor file (format `contractor_1099.v1`, documented in docs/hr-payroll-payouts.md):
 * one row per contractor and currency paid in the tax year, RFC 4180, UTF-8, CRLF, money as
 * integer cents. Only the TIN's last four digits are written. Cells a spreadsheet would run
 * as a formula are neutralized like the new-hire file's.
 */
import { stringify } from 'csv-stringify/sync';
import type { Contractor } from './contractor';
import type { ContractorTotal } from './contractor-totals';
import { neutralized } from './new-hire-file';

export const CONTRACTOR_FORMAT = 'contractor_1099.v1';

export const CONTRACTOR_COLUMNS = [
  'format',
  'tax_year',
  'contractor_id',
  'legal_name',
  'tin_type',
  'tin_last4',
  'address_line1',
  'address_line2',
  'city',
  'region',
  'postal_code',
  'country',
  'currency',
  'timesheet_pay_cents',
  'payout_cents',
  'total_paid_cents',
] as const;

export interface ContractorFile {
  content: string;
  rows: number;
  /** Workers paid in the year who have no contractor record (they are not in the file). */
  unregisteredWorkerIds: string[];
}

export function contractorFile(taxYear: number, contractors: readonly Contractor[], totals: readonly ContractorTotal[]): ContractorFile {
  const byWorker = new Map(contractors.map((c) => [c.workerId, c]));
  const rows: string[][] = [];
  const unregistered = new Set<string>();
  for (const total of totals) {
    const c = byWorker.get(total.workerId);
    if (!c) {
      unregistered.add(total.workerId);
      continue;
    }
    if (total.totalCents === 0) continue;
    rows.push(
      [
        CONTRACTOR_FORMAT,
        String(taxYear),
        c.workerId,
        c.legalName,
        c.tinType,
        c.tinLast4,
        c.addressLine1,
        c.addressLine2 ?? '',
        c.city,
        c.region,
        c.postalCode,
        c.country,
        total.currency,
        String(total.timesheetCents),
        String(total.payoutCents),
        String(total.totalCents),
      ].map(neutralized),
    );
  }
  return {
    content: stringify([[...CONTRACTOR_COLUMNS], ...rows], { record_delimiter: 'windows' }),
    rows: rows.length,
    unregisteredWorkerIds: [...unregistered].sort(),
  };
}
