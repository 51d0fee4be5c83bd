/**
 * The new-hire file for payroll (format `new_hire.v1`, documented in docs/hr-payroll-payouts.md):
 * one CSV per hire, RFC 4180 quoting, a header row, UTF-8, money as a decimal of the
 * currency's major unit computed from integer minor units. Cells that a spreadsheet would
 * run as a formula (= + - @, tab, CR) are prefixed with ' (OWASP CSV injection).
 */
import { stringify } from 'csv-stringify/sync';
import { z } from 'zod';
import { candidateHired } from '../../hooks/domain/payloads';

export const NEW_HIRE_COLUMNS = [
  'format',
  'employee_external_id',
  'first_name',
  'last_name',
  'email',
  'job_title',
  'department',
  'start_date',
  'employment_type',
  'pay_rate',
  'pay_currency',
  'pay_per',
] as const;

export const payrollHire = candidateHired.extend({
  employment_type: z.enum(['full_time', 'part_time', 'temporary', 'seasonal']).optional(),
  pay_rate: z
    .object({
      amount: z.number().int().min(1).max(100_000_000_00),
      currency: z.string().regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code such as USD'),
      per: z.enum(['hour', 'year']),
    })
    .optional(),
});
export type PayrollHire = z.infer<typeof payrollHire>;

/** Integer minor units as a decimal string (2 decimals: every currency we bill in has cents). */
export const decimalOf = (cents: number) => `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

const FORMULA = /^[=+\-@\t\r]/;
export const neutralized = (value: string) => (FORMULA.test(value) ? `'${value}` : value);

export function splitName(name: string): { first: string; last: string } {
  const parts = name.trim().split(/\s+/);
  const last = parts.length > 1 ? (parts.pop() as string) : '';
  return { first: parts.join(' '), last };
}

export function newHireCsv(hire: PayrollHire): string {
  return newHiresCsv([
    {
      candidateId: hire.candidate_id,
      name: hire.candidate.name,
      email: hire.candidate.email,
      jobTitle: hire.job_title ?? null,
      department: hire.department ?? null,
      startDate: hire.start_date ?? null,
      employmentType: hire.employment_type ?? null,
      payRate: hire.pay_rate ?? null,
    },
  ]);
}

/** The hires as payroll reads them: one row each (the download holds a day's hires). */
export interface NewHireRow {
  candidateId: string;
  name: string | null;
  email: string | null;
  jobTitle: string | null;
  department: string | null;
  startDate: string | null;
  employmentType: string | null;
  payRate: { amount: number; currency: string; per: string } | null;
}

export function newHiresCsv(hires: readonly NewHireRow[]): string {
  const rows = hires.map((hire) => {
    const { first, last } = splitName(hire.name ?? '');
    return [
      'new_hire.v1',
      hire.candidateId,
      first,
      last,
      hire.email ?? '',
      hire.jobTitle ?? '',
      hire.department ?? '',
      hire.startDate ?? '',
      hire.employmentType ?? '',
      hire.payRate ? decimalOf(hire.payRate.amount) : '',
      hire.payRate?.currency ?? '',
      hire.payRate?.per ?? '',
    ].map(neutralized);
  });
  return stringify([[...NEW_HIRE_COLUMNS], ...rows], { record_delimiter: 'windows' });
}
