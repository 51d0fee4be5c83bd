/**
 * The billing ledger against an independent computation (fast-check): over random
 * sequences of activations, deactivations, subscriptions, unsubscriptions and package
 * switches spread across several months,
 * - every quote is exactly the lines the change then made (quote equals charge);
 * - what was invoiced (minus the credit balance left, plus prorations still pending)
 *   equals the time-weighted price of what was held, per second, with the documented
 *   rounding (accrued price from the period's start rounded half up per instant), to the cent;
 * - nothing is charged twice: per period and item the net charge lies between 0 and its price;
 * - the platform fee is charged once in each period in which it applied, and never otherwise.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { periodContaining, type BillingPeriod } from '../../src/features/billing/domain/billing-period';
import { applyChange, changeLines, emptyLedger, renew, type LedgerState, type RenewalInvoice } from '../../src/features/billing/domain/billing-ledger';
import type { InvoiceLine } from '../../src/features/billing/domain/invoice-line';
import type { HeldAction, HeldPackage, Holdings } from '../../src/features/billing/domain/holdings';

const FEE = 4900;
const usd = (amount: number) => ({ amount, currency: 'USD' });
const ACTIONS: HeldAction[] = [
  { key: 'a.one', name: 'A', price: usd(1900) },
  { key: 'b.two', name: 'B', price: usd(2999) },
  { key: 'c.three', name: 'C', price: usd(901) },
  { key: 'd.four', name: 'D', price: usd(3900) },
];
const PACKAGES: HeldPackage[] = [
  { slug: 'ab', name: 'AB', price: usd(3500), actionKeys: ['a.one', 'b.two'] },
  { slug: 'bc', name: 'BC', price: usd(4101), actionKeys: ['b.two', 'c.three'] },
  { slug: 'acd', name: 'ACD', price: usd(6900), actionKeys: ['a.one', 'c.three', 'd.four'] },
];

type Op =
  | { kind: 'activate' | 'deactivate'; index: number; after: number }
  | { kind: 'subscribe' | 'unsubscribe'; index: number; after: number }
  | { kind: 'switch'; from: number; to: number; after: number };

const seconds = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3600 }), fc.integer({ min: 3600, max: 45 * 86400 }));
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constantFrom('activate' as const, 'deactivate' as const), index: fc.nat(ACTIONS.length - 1), after: seconds }),
  fc.record({ kind: fc.constantFrom('subscribe' as const, 'unsubscribe' as const), index: fc.nat(PACKAGES.length - 1), after: seconds }),
  fc.record({ kind: fc.constant('switch' as const), from: fc.nat(PACKAGES.length - 1), to: fc.nat(PACKAGES.length - 1), after: seconds }),
);

function change(h: Holdings, o: Op): Holdings {
  const without = <T>(list: readonly T[], drop: (t: T) => boolean) => list.filter((t) => !drop(t));
  switch (o.kind) {
    case 'activate':
      return h.aLaCarte.some((a) => a.key === ACTIONS[o.index]!.key) ? h : { ...h, aLaCarte: [...h.aLaCarte, ACTIONS[o.index]!] };
    case 'deactivate':
      return { ...h, aLaCarte: without(h.aLaCarte, (a) => a.key === ACTIONS[o.index]!.key) };
    case 'subscribe':
      return h.packages.some((p) => p.slug === PACKAGES[o.index]!.slug) ? h : { ...h, packages: [...h.packages, PACKAGES[o.index]!] };
    case 'unsubscribe':
      return { ...h, packages: without(h.packages, (p) => p.slug === PACKAGES[o.index]!.slug) };
    case 'switch': {
      const rest = without(h.packages, (p) => p.slug === PACKAGES[o.from]!.slug || p.slug === PACKAGES[o.to]!.slug);
      return { ...h, packages: [...rest, PACKAGES[o.to]!] };
    }
  }
}

// The rules restated here, independently of the ledger's code.
const periodLength = (period: BillingPeriod) => (period.end.getTime() - period.start.getTime()) / 1000;
/** Documented rounding: the price accrued from the period's start to `at`, per second, rounded half up (n/d + 1/2, floored). */
function accrued(price: number, period: BillingPeriod, at: Date): number {
  const total = periodLength(period);
  const elapsed = Math.min(Math.max(Math.floor((at.getTime() - period.start.getTime()) / 1000), 0), total);
  return Math.floor((2 * price * elapsed + total) / (2 * total));
}
/** What costs money while `holdings` are held: packages, and à la carte actions no held package covers (then the fee applies). */
function billable(holdings: Holdings): { items: { price: number }[]; feeApplies: boolean } {
  const packages = holdings.packages.map((p) => ({ price: p.price.amount }));
  const charged = holdings.aLaCarte.filter((a) => !holdings.packages.some((p) => p.actionKeys.includes(a.key))).map((a) => ({ price: a.price.amount }));
  return { items: [...packages, ...charged], feeApplies: charged.length > 0 };
}

/** Time-weighted price of a holdings timeline up to `horizon`, computed segment by segment. */
function expectedCharges(timeline: { at: Date; holdings: Holdings }[], horizon: Date): { total: number; feePeriods: Set<number> } {
  let total = 0;
  const feePeriods = new Set<number>();
  for (let i = 0; i < timeline.length; i++) {
    const { at, holdings } = timeline[i]!;
    const end = i + 1 < timeline.length ? timeline[i + 1]!.at : horizon;
    const { items, feeApplies } = billable(holdings);
    if (items.length === 0 && !feeApplies) continue;
    // The state is present in the period of its start, and in every period it reaches.
    let cursor = at;
    let period: BillingPeriod = periodContaining(at);
    for (;;) {
      if (feeApplies) feePeriods.add(period.start.getTime());
      const segmentEnd = end.getTime() < period.end.getTime() ? end : period.end;
      for (const item of items) total += accrued(item.price, period, segmentEnd) - accrued(item.price, period, cursor);
      if (end.getTime() <= period.end.getTime()) break;
      cursor = period.end;
      period = periodContaining(period.end);
    }
  }
  return { total: total + FEE * feePeriods.size, feePeriods };
}

describe('billing ledger (property)', () => {
  it('charges exactly the time-weighted price of what was held, each quote is the charge, nothing twice', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 365 * 86400 }),
        fc.array(op, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 70 * 86400 }),
        (offset, ops, tail) => {
          let state: LedgerState = emptyLedger();
          let holdings: Holdings = { aLaCarte: [], packages: [] };
          let at = new Date(Date.UTC(2027, 0, 1) + offset * 1000);
          const invoices: RenewalInvoice[] = [];
          const timeline: { at: Date; holdings: Holdings }[] = [];
          const quoted: InvoiceLine[] = [];
          const renewUntil = (t: Date) => {
            while (state.period && t.getTime() >= state.period.end.getTime()) {
              const renewal = renew(state, FEE);
              state = renewal.state;
              if (renewal.invoice) invoices.push(renewal.invoice);
            }
          };
          for (const o of ops) {
            at = new Date(at.getTime() + o.after * 1000);
            renewUntil(at);
            const after = change(holdings, o);
            const quote = changeLines(state, after, at, FEE);
            const applied = applyChange(state, after, at, FEE);
            assert.deepEqual(applied.lines, quote, 'the quote is what the change recorded');
            quoted.push(...quote);
            state = applied.state;
            holdings = after;
            timeline.push({ at, holdings });
          }
          renewUntil(new Date(at.getTime() + tail * 1000));
          const horizon = state.period ? state.period.end : at;
          const { total, feePeriods } = expectedCharges(timeline, horizon);
          const invoiced = invoices.reduce((sum, inv) => sum + inv.total, 0);
          const pending = state.pending.reduce((sum, l) => sum + l.amount, 0);
          assert.equal(invoiced - state.creditBalance + pending, total, 'invoiced = time-weighted price held');

          // Every quoted line reaches an invoice as it was quoted, in order, and nothing else
          // is charged for a period but its advance lines.
          const charged = [...invoices.flatMap((i) => i.lines.filter((l) => l.periodStart.getTime() < i.periodStart.getTime())), ...state.pending];
          assert.deepEqual(charged, quoted, 'what the quotes showed is what the invoices charged');

          const lines: InvoiceLine[] = [...invoices.flatMap((i) => i.lines), ...state.pending];
          const net = new Map<string, number>();
          const fees = new Map<number, number>();
          for (const line of lines) {
            if (line.type === 'platform_fee') {
              fees.set(line.periodStart.getTime(), (fees.get(line.periodStart.getTime()) ?? 0) + 1);
              continue;
            }
            const k = `${line.periodStart.toISOString()} ${line.type} ${line.key}`;
            net.set(k, (net.get(k) ?? 0) + line.amount);
          }
          const prices = new Map<string, number>([
            ...ACTIONS.map((a) => [`action ${a.key}`, a.price.amount] as const),
            ...PACKAGES.map((p) => [`package ${p.slug}`, p.price.amount] as const),
          ]);
          for (const [k, amount] of net) {
            const price = prices.get(k.split(' ').slice(1).join(' '))!;
            assert.ok(amount >= 0 && amount <= price, `${k}: net ${amount} outside [0, ${price}]`);
          }
          for (const [period, count] of fees) assert.equal(count, 1, `platform fee once in ${new Date(period).toISOString()}`);
          assert.deepEqual([...fees.keys()].sort(), [...feePeriods].sort(), 'fee exactly in the periods where it applied');
          for (const invoice of invoices) assert.ok(invoice.total >= 0 && invoice.endingCredit >= 0, 'no invoice below zero: credits carry forward');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('prorates per second: an action taken after day 10 of a 30-day month costs 20/30 of its price, then renews in full', () => {
    const june10 = new Date('2027-06-11T00:00:00Z');
    const action = ACTIONS[0]!; // 1900
    const { state, lines } = applyChange(emptyLedger(), { aLaCarte: [action], packages: [] }, june10, FEE);
    assert.deepEqual(
      lines.map((l) => [l.type, l.amount]),
      [
        ['action', 1267],
        ['platform_fee', 4900],
      ],
    );
    const { invoice } = renew(state, FEE);
    assert.equal(invoice!.periodStart.toISOString(), '2027-07-01T00:00:00.000Z');
    assert.deepEqual(
      invoice!.lines.map((l) => [l.type, l.amount, l.proration]),
      [
        ['action', 1267, true],
        ['platform_fee', 4900, false],
        ['platform_fee', 4900, false],
        ['action', 1900, false],
      ],
    );
    assert.equal(invoice!.total, 1267 + 4900 + 4900 + 1900);
  });

  it('a deactivation earns a credit that reduces the next invoice, never below zero', () => {
    const pack = PACKAGES[2]!; // 6900
    let { state } = applyChange(emptyLedger(), { aLaCarte: [], packages: [pack] }, new Date('2027-03-01T00:00:00Z'), FEE);
    state = renew(state, FEE).state; // April in advance
    const { state: dropped, lines } = applyChange(state, { aLaCarte: [], packages: [] }, new Date('2027-04-16T00:00:00Z'), FEE);
    assert.deepEqual(
      lines.map((l) => l.amount),
      [-3450],
    );
    const { invoice, state: after } = renew(dropped, FEE);
    assert.equal(invoice!.total, 0);
    assert.equal(after.creditBalance, 3450);
    assert.equal(after.period, null);
  });
});
