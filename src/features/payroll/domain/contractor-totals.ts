/**
 * Totals per worker and currency for the contractor export: integer cents summed exactly,
 * split by where they come from (approved timesheets, API payouts). A currency is never
 * converted: a worker paid in two currencies has two totals.
 */
import type { ContractorPayment } from './contractor';

export interface ContractorTotal {
  workerId: string;
  currency: string;
  timesheetCents: number;
  payoutCents: number;
  totalCents: number;
}

export function totalsByWorker(payments: readonly ContractorPayment[]): ContractorTotal[] {
  const totals = new Map<string, ContractorTotal>();
  for (const p of payments) {
    if (!Number.isSafeInteger(p.cents) || p.cents < 0) throw new RangeError(`A payment is a non-negative integer of cents, not ${p.cents}`);
    const currency = p.currency.toUpperCase();
    const key = `${p.workerId}\u0000${currency}`;
    const total = totals.get(key) ?? { workerId: p.workerId, currency, timesheetCents: 0, payoutCents: 0, totalCents: 0 };
    if (p.source === 'timesheet') total.timesheetCents += p.cents;
    else total.payoutCents += p.cents;
    total.totalCents += p.cents;
    totals.set(key, total);
  }
  return [...totals.values()].sort((a, b) => (a.workerId === b.workerId ? a.currency.localeCompare(b.currency) : a.workerId < b.workerId ? -1 : 1));
}
