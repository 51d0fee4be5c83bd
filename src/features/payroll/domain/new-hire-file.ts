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
  const { first, last } = splitName(hire.candidate.name);
  const row = [
    'new_hire.v1',
    hire.candidate_id,
    first,
    last,
    hire.candidate.email,
    hire.job_title ?? '',
    hire.department ?? '',
    hire.start_date ?? '',
    hire.employment_type ?? '',
    hire.pay_rate ? decimalOf(hire.pay_rate.amount) : '',
    hire.pay_rate?.currency ?? '',
    hire.pay_rate?.per ?? '',
  ].map(neutralized);
  return stringify([[...NEW_HIRE_COLUMNS], row], { record_delimiter: 'windows' });
}
