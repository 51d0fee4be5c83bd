/**
 * The billing ledger of one organization, pure (no I/O): the one calculation behind the
 * billing preview's quote, the upcoming invoice and every finalized invoice.
 *
 * Billing is in advance, like Stripe's licensed subscriptions:
 * - at each period boundary (renewal) the invoice charges the new period in full for
 *   what is held then, plus the platform fee when it applies;
 * - a change inside a period (activate, deactivate, subscribe, unsubscribe, switch, a
 *   package starting or stopping to cover an à la carte action) makes proration lines at
 *   once: a charge for the remaining time of what starts costing, a credit for the unused
 *   time of what stops. They wait in `pending` and go on the next invoice;
 * - the platform fee is charged once per period in which it applies at any moment, never
 *   prorated and never credited;
 * - an invoice whose lines sum below zero is 0, and the rest is a credit balance that
 *   reduces the next invoices (never a refund).
 */
import type { Holdings } from './holdings';
import { remainder } from './accrual';
import { billable, sameCharge, type BillableItem } from './billable-items';
import { nextPeriod, periodContaining, sameInstant, type BillingPeriod } from './billing-period';
import { lineTotal, type InvoiceLine } from './invoice-line';

export interface LedgerState {
  /** What was held at the last change, with the prices it was taken at. */
  holdings: Holdings;
  /** The period being billed now; null before the first billable change (or after everything ended). */
  period: BillingPeriod | null;
  /** Start of the last period whose platform fee is charged. */
  feeChargedFor: Date | null;
  /** Proration lines waiting for the next invoice. */
  pending: InvoiceLine[];
  /** Cents owed to the organization, taken off the next invoices. */
  creditBalance: number;
  lastChangeAt: Date | null;
}

export interface RenewalInvoice {
  periodStart: Date;
  periodEnd: Date;
  lines: InvoiceLine[];
  /** Signed sum of the lines. */
  subtotal: number;
  startingCredit: number;
  /** What the organization owes: max(0, subtotal − starting credit). */
  total: number;
  endingCredit: number;
}

export const emptyHoldings = (): Holdings => ({ aLaCarte: [], packages: [] });

export const emptyLedger = (): LedgerState => ({
  holdings: emptyHoldings(),
  period: null,
  feeChargedFor: null,
  pending: [],
  creditBalance: 0,
  lastChangeAt: null,
});

export class RenewalDueError extends Error {
  constructor(readonly dueAt: Date) {
    super(`the period ending ${dueAt.toISOString()} must be renewed before a later change`);
    this.name = 'RenewalDueError';
  }
}

const day = (at: Date) => at.toISOString().slice(0, 10);

const holdsSomething = (holdings: Holdings) => holdings.aLaCarte.length > 0 || holdings.packages.length > 0;

/** The lines a change from the ledger's holdings to `after` at `at` makes (nothing is stored). */
export function changeLines(state: LedgerState, after: Holdings, at: Date, platformFee: number): InvoiceLine[] {
  if (state.period && at.getTime() >= state.period.end.getTime()) throw new RenewalDueError(state.period.end);
  const period = state.period ?? periodContaining(at);
  const before = billable(state.holdings);
  const next = billable(after);
  const lines: InvoiceLine[] = [];
  const line = (item: BillableItem, sign: 1 | -1): void => {
    const amount = remainder(item.price, period, at);
    if (amount === 0) return;
    lines.push({
      type: item.kind,
      key: item.key,
      description: sign > 0 ? `Remaining time on ${item.name} from ${day(at)}` : `Unused time on ${item.name} from ${day(at)}`,
      amount: sign * amount,
      proration: true,
      periodStart: period.start,
      periodEnd: period.end,
    });
  };
  for (const item of before.items) if (!next.items.some((n) => sameCharge(n, item))) line(item, -1);
  for (const item of next.items) if (!before.items.some((b) => sameCharge(b, item))) line(item, 1);
  if (next.feeApplies && !sameInstant(state.feeChargedFor, period.start)) {
    lines.push({
      type: 'platform_fee',
      key: null,
      description: 'Platform fee (à la carte)',
      amount: platformFee,
      proration: false,
      periodStart: period.start,
      periodEnd: period.end,
    });
  }
  return lines;
}

/** Records a change: the ledger now holds `after`, and the change's lines wait for the next invoice. */
export function applyChange(state: LedgerState, after: Holdings, at: Date, platformFee: number): { state: LedgerState; lines: InvoiceLine[] } {
  const lines = changeLines(state, after, at, platformFee);
  const period = state.period ?? (holdsSomething(after) ? periodContaining(at) : null);
  const feeCharged = lines.some((l) => l.type === 'platform_fee');
  return {
    lines,
    state: {
      holdings: after,
      period,
      feeChargedFor: feeCharged && period ? period.start : state.feeChargedFor,
      pending: [...state.pending, ...lines],
      creditBalance: state.creditBalance,
      lastChangeAt: at,
    },
  };
}

/** The lines charging a whole period in advance for what is held. */
export function advanceLines(holdings: Holdings, period: BillingPeriod, platformFee: number): InvoiceLine[] {
  const { items, covered, feeApplies } = billable(holdings);
  const base = { proration: false, periodStart: period.start, periodEnd: period.end };
  const lines: InvoiceLine[] = [];
  if (feeApplies) lines.push({ ...base, type: 'platform_fee', key: null, description: 'Platform fee (à la carte)', amount: platformFee });
  for (const item of items)
    lines.push({ ...base, type: item.kind, key: item.key, description: item.kind === 'package' ? `Package: ${item.name}` : item.name, amount: item.price });
  for (const action of covered) {
    lines.push({
      ...base,
      type: 'action',
      key: action.key,
      description: `${action.name} (included in package ${action.coveredBy})`,
      amount: 0,
      coveredBy: action.coveredBy,
    });
  }
  return lines;
}

/**
 * Closes the ledger's period: the invoice for the next one (its pending prorations plus
 * the next period in advance), or null when there is nothing to bill. The caller stores
 * the new state and the invoice together, exactly once per organization and period.
 */
export function renew(state: LedgerState, platformFee: number): { state: LedgerState; invoice: RenewalInvoice | null } {
  if (!state.period) return { state, invoice: null };
  const next = nextPeriod(state.period);
  const advance = advanceLines(state.holdings, next, platformFee);
  const lines = [...state.pending, ...advance];
  const continues = holdsSomething(state.holdings);
  const feeCharged = advance.some((l) => l.type === 'platform_fee');
  const base: LedgerState = { ...state, period: continues ? next : null, feeChargedFor: feeCharged ? next.start : state.feeChargedFor, pending: [] };
  if (lines.length === 0) return { state: base, invoice: null };
  const subtotal = lineTotal(lines);
  const startingCredit = state.creditBalance;
  const total = Math.max(0, subtotal - startingCredit);
  const endingCredit = Math.max(0, startingCredit - subtotal);
  return {
    state: { ...base, creditBalance: endingCredit },
    invoice: { periodStart: next.start, periodEnd: next.end, lines, subtotal, startingCredit, total, endingCredit },
  };
}

/** The monthly total of what is held (the recurring charge from the next period on). */
export function monthlyTotal(holdings: Holdings, platformFee: number): number {
  const { items, feeApplies } = billable(holdings);
  return items.reduce((sum, item) => sum + item.price, feeApplies ? platformFee : 0);
}
