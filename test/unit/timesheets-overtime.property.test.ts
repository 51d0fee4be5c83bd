/**
 * Overtime and pay (fast-check), against an oracle that walks a week minute by minute:
 * - flsa_weekly: every minute after the 2,400th of the week is overtime;
 * - california_daily: a day's minutes after the 720th are double time, after the 480th
 *   overtime, and a regular minute once 2,400 regular minutes were worked that week is overtime;
 * - no minute is lost or counted twice (regular + overtime + double time = worked);
 * - California never pays less overtime premium than FLSA;
 * - the amount is rate × (regular + 1.5 × overtime + 2 × double time) / 60 rounded once, half
 *   up: within half a cent of the exact value, and never decreasing when a minute is added.
 * And the workday of an entry is the day it starts in the placement's time zone.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { amountFor, splitHours, type HoursSplit, type WorkedDay } from '../../src/features/timesheets/domain/overtime';
import { addDays, workedDays } from '../../src/features/timesheets/domain/worked-days';
import { invoiceLines } from '../../src/features/timesheets/domain/client-invoice';
import type { ApprovedTimesheet } from '../../src/features/timesheets/domain/ports';

const WEEK = ['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29'];
const week = fc.array(fc.record({ date: fc.constantFrom(...WEEK), minutes: fc.integer({ min: 0, max: 16 * 60 }) }), { maxLength: 10 });

function oracle(days: readonly WorkedDay[], rule: 'flsa_weekly' | 'california_daily'): HoursSplit {
  const out = { regular: 0, overtime: 0, doubleTime: 0 };
  let weekMinute = 0;
  for (const date of WEEK) {
    const minutes = days.filter((d) => d.date === date).reduce((s, d) => s + d.minutes, 0);
    for (let k = 0; k < minutes; k += 1, weekMinute += 1) {
      if (rule === 'flsa_weekly') {
        if (weekMinute >= 2400) out.overtime += 1;
        else out.regular += 1;
      } else if (k >= 720) out.doubleTime += 1;
      else if (k >= 480) out.overtime += 1;
      else if (out.regular >= 2400) out.overtime += 1;
      else out.regular += 1;
    }
  }
  return out;
}

describe('timesheets: overtime and pay (property)', () => {
  it('splits a week as the minute-by-minute oracle does, losing no minute', () => {
    fc.assert(
      fc.property(week, fc.constantFrom('flsa_weekly' as const, 'california_daily' as const), (days, rule) => {
        const split = splitHours(days, rule);
        assert.deepEqual(split, oracle(days, rule));
        assert.equal(
          split.regular + split.overtime + split.doubleTime,
          days.reduce((s, d) => s + d.minutes, 0),
        );
        assert.ok(split.regular <= 2400);
      }),
      { numRuns: 300 },
    );
  });

  it('California pays at least the FLSA premium', () => {
    fc.assert(
      fc.property(week, (days) => {
        const flsa = splitHours(days, 'flsa_weekly');
        const ca = splitHours(days, 'california_daily');
        assert.ok(ca.overtime + 2 * ca.doubleTime >= flsa.overtime, JSON.stringify({ flsa, ca }));
      }),
      { numRuns: 200 },
    );
  });

  it('amounts: integer cents, within half a cent of exact (half up), monotonic in minutes', () => {
    const split = fc.record({
      regular: fc.integer({ min: 0, max: 2400 }),
      overtime: fc.integer({ min: 0, max: 5000 }),
      doubleTime: fc.integer({ min: 0, max: 3000 }),
    });
    fc.assert(
      fc.property(
        split,
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.constantFrom('regular' as const, 'overtime' as const, 'doubleTime' as const),
        (s, rate, grow) => {
          const amount = amountFor(s, rate);
          assert.ok(Number.isSafeInteger(amount) && amount >= 0);
          // amount × 120 − exact × 120 lies in (−60, 60]: half up.
          const exact120 = BigInt(rate) * BigInt(2 * s.regular + 3 * s.overtime + 4 * s.doubleTime);
          const diff = BigInt(amount) * 120n - exact120;
          assert.ok(diff > -60n && diff <= 60n, `${amount} for ${exact120}/120`);
          assert.ok(amountFor({ ...s, [grow]: s[grow] + 1 }, rate) >= amount);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('an entry counts on the day it starts in the placement’s zone; breaks are unpaid; seconds are dropped', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 6 * 1440 - 1 }),
        fc.integer({ min: 1, max: 16 * 60 }),
        fc.integer({ min: 0, max: 59 }),
        fc.integer({ min: 0, max: 120 }),
        (startMinute, length, seconds, breakMinutes) => {
          fc.pre(breakMinutes < length);
          // Los Angeles is UTC−8 in this week (standard time).
          const start = new Date(Date.parse('2026-11-23T08:00:00Z') + startMinute * 60_000);
          const end = new Date(start.getTime() + length * 60_000 + seconds * 1000);
          const [day] = workedDays([{ start: start.toISOString(), end: end.toISOString(), breakMinutes }], '2026-11-23', 'America/Los_Angeles');
          assert.equal(day!.date, addDays('2026-11-23', Math.floor(startMinute / 1440)));
          assert.equal(day!.minutes, length - breakMinutes);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuses overlapping entries and entries outside the week', () => {
    const e = (start: string, end: string) => ({ start, end, breakMinutes: 0 });
    assert.throws(
      () => workedDays([e('2026-11-23T09:00:00Z', '2026-11-23T17:00:00Z'), e('2026-11-23T16:00:00Z', '2026-11-23T18:00:00Z')], '2026-11-23', 'UTC'),
      /overlap/,
    );
    assert.throws(() => workedDays([e('2026-11-30T09:00:00Z', '2026-11-30T17:00:00Z')], '2026-11-23', 'UTC'), { code: 'entry_outside_period' });
    assert.throws(() => workedDays([e('2026-11-23T09:00:00Z', '2026-11-23T09:00:00Z')], '2026-11-23', 'UTC'), { code: 'entry_invalid' });
  });

  it('an invoice total is exactly Σ over timesheets of bill rate × (regular + 1.5 × overtime + 2 × double time), each rounded once', () => {
    const sheet = fc.record({
      split: fc.record({
        regular: fc.integer({ min: 0, max: 2400 }),
        overtime: fc.integer({ min: 0, max: 3000 }),
        doubleTime: fc.integer({ min: 0, max: 600 }),
      }),
      rate: fc.integer({ min: 0, max: 1_000_000 }),
    });
    fc.assert(
      fc.property(fc.array(sheet, { minLength: 1, maxLength: 12 }), (sheets) => {
        const approved = sheets.map(({ split, rate }, i): ApprovedTimesheet => ({
          timesheetId: `tms_${i}`,
          placementId: 'plc',
          workerId: 'w',
          workerName: 'W',
          workerEmail: null,
          clientCompanyId: 'c',
          periodStart: '2026-11-23',
          periodEnd: '2026-11-29',
          regularMinutes: split.regular,
          overtimeMinutes: split.overtime,
          doubleTimeMinutes: split.doubleTime,
          payCents: 0,
          billCents: amountFor(split, rate),
          payRateCents: 0,
          billRateCents: rate,
          currency: 'USD',
          approvedAt: new Date(0),
          invoiceId: null,
        }));
        const { lines, total } = invoiceLines(approved);
        assert.equal(
          total,
          lines.reduce((s, l) => s + l.amount, 0),
        );
        const exact120 = sheets.reduce((s, { split, rate }) => s + BigInt(rate) * BigInt(2 * split.regular + 3 * split.overtime + 4 * split.doubleTime), 0n);
        const diff = BigInt(total) * 120n - exact120;
        // Each timesheet is rounded once (half up), so the total is within n half-cents of exact.
        assert.ok(diff > -60n * BigInt(sheets.length) && diff <= 60n * BigInt(sheets.length));
      }),
      { numRuns: 200 },
    );
  });
});
