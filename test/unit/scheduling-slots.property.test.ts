/**
 * Open slots across time zones and DST changes (fast-check, bounded runs): the slots are
 * exactly the grid times where a direct, wall-clock check says every interviewer works,
 * nobody is busy (with the buffer) and the window and notice allow it; and two concrete DST
 * days: a 09:00–17:00 day in Berlin is 07:00–15:00 UTC after the spring change.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { openSlots, type Interviewer, type SlotQuery, type WeeklyHours } from '../../src/features/scheduling/domain/open-slots';

const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'America/Santiago', 'Australia/Lord_Howe', 'Pacific/Chatham', 'Asia/Kolkata', 'Asia/Kathmandu'];
/** Days around DST changes in 2026 (US, EU, Chile and Australia, New Zealand, back again). */
const DST_DAYS = ['2026-03-08', '2026-03-29', '2026-04-05', '2026-09-27', '2026-10-04', '2026-10-25', '2026-11-01'];
const MINUTE = 60_000;

const hhmm = (quarter: number) => `${String(Math.floor(quarter / 4)).padStart(2, '0')}:${String((quarter % 4) * 15).padStart(2, '0')}`;

// Working hours between 06:00 and 22:00 (DST changes happen at night in these zones).
const range = fc
  .tuple(fc.integer({ min: 24, max: 84 }), fc.integer({ min: 1, max: 32 }))
  .map(([from, length]) => [hhmm(from), hhmm(Math.min(from + length, 88))] as const);
const weeklyHours: fc.Arbitrary<WeeklyHours> = fc.array(fc.array(range, { maxLength: 2 }), { minLength: 7, maxLength: 7 }).map((days) => {
  const hours: WeeklyHours = {};
  days.forEach((ranges, i) => (hours[(i + 1) as 1] = ranges));
  return hours;
});

const query: fc.Arbitrary<SlotQuery> = fc
  .record({
    day: fc.constantFrom(...DST_DAYS),
    offsetHours: fc.integer({ min: -48, max: 24 }),
    lengthHours: fc.integer({ min: 6, max: 96 }),
    durationMinutes: fc.integer({ min: 3, max: 24 }).map((n) => n * 5),
    stepMinutes: fc.constantFrom(15, 30, 60),
    bufferMinutes: fc.constantFrom(0, 5, 10),
    noticeHours: fc.option(fc.integer({ min: 0, max: 48 }), { nil: undefined }),
    interviewers: fc.array(
      fc.record({
        zone: fc.constantFrom(...ZONES),
        hours: weeklyHours,
        busy: fc.array(fc.tuple(fc.integer({ min: -24 * 60, max: 5 * 24 * 60 }), fc.integer({ min: 1, max: 300 })), { maxLength: 6 }),
      }),
      { minLength: 1, maxLength: 3 },
    ),
  })
  .map((r) => {
    const start = new Date(Date.parse(`${r.day}T00:00:00Z`) + r.offsetHours * 3_600_000);
    const end = new Date(start.getTime() + r.lengthHours * 3_600_000);
    return {
      window: { start, end },
      durationMinutes: r.durationMinutes,
      stepMinutes: r.stepMinutes,
      bufferMinutes: r.bufferMinutes,
      ...(r.noticeHours === undefined ? {} : { notBefore: new Date(start.getTime() + r.noticeHours * 3_600_000 + 7 * MINUTE) }),
      interviewers: r.interviewers.map((i): Interviewer => ({
        zone: i.zone,
        hours: i.hours,
        busy: i.busy.map(([at, length]) => ({ start: new Date(start.getTime() + at * MINUTE), end: new Date(start.getTime() + (at + length) * MINUTE) })),
      })),
    };
  });

const wallMinutes = (d: DateTime) => d.hour * 60 + d.minute;
const toMinutes = (text: string) => Number(text.slice(0, 2)) * 60 + Number(text.slice(3));

/** The direct check of one slot, independent of the interval arithmetic. */
function allowed(q: SlotQuery, t: number): boolean {
  const end = t + q.durationMinutes * MINUTE;
  if (t < q.window.start.getTime() || end > q.window.end.getTime() || t < (q.notBefore?.getTime() ?? -Infinity)) return false;
  const buffer = (q.bufferMinutes ?? 0) * MINUTE;
  return q.interviewers.every((i) => {
    const from = DateTime.fromMillis(t, { zone: i.zone });
    const to = DateTime.fromMillis(end, { zone: i.zone });
    if (from.toISODate() !== to.toISODate()) return false;
    // Every minute of the slot inside one of the day's ranges (ranges that touch or overlap join).
    const ranges = i.hours[from.weekday as 1] ?? [];
    const covered = (m: number) => ranges.some(([a, b]) => toMinutes(a) <= m && m < toMinutes(b));
    // Minute by real minute, each read on the wall clock: across a fall-back the wall clock runs
    // backwards (02:45 CEST → 02:00 CET), so a loop over wall minutes would pass a slot unchecked.
    let works = true;
    for (let at = t; at < end; at += MINUTE) works &&= covered(wallMinutes(DateTime.fromMillis(at, { zone: i.zone })));
    const busy = i.busy.some((b) => b.start.getTime() - buffer < end && b.end.getTime() + buffer > t);
    return works && !busy;
  });
}

describe('scheduling: open slots (property, across time zones and DST changes)', () => {
  it('the slots are exactly the grid times where everyone works, nobody is busy, inside the window and the notice', () => {
    fc.assert(
      fc.property(query, (q) => {
        const slots = openSlots(q);
        const step = q.stepMinutes * MINUTE;
        const expected: number[] = [];
        for (let t = Math.ceil(q.window.start.getTime() / step) * step; t < q.window.end.getTime(); t += step) if (allowed(q, t)) expected.push(t);
        assert.deepEqual(
          slots.map((s) => s.start.getTime()),
          expected,
        );
        for (const s of slots) assert.equal(s.end.getTime() - s.start.getTime(), q.durationMinutes * MINUTE);
      }),
      { numRuns: 80 },
    );
  });

  it('a 09:00–17:00 day in Berlin is 08:00–16:00 UTC before the spring change and 07:00–15:00 UTC after it', () => {
    const weekdays: WeeklyHours = { 6: [['09:00', '17:00']], 7: [['09:00', '17:00']] };
    const slots = openSlots({
      window: { start: new Date('2026-03-28T00:00:00Z'), end: new Date('2026-03-30T00:00:00Z') },
      durationMinutes: 60,
      stepMinutes: 60,
      interviewers: [{ zone: 'Europe/Berlin', hours: weekdays, busy: [{ start: new Date('2026-03-29T09:30:00Z'), end: new Date('2026-03-29T10:00:00Z') }] }],
    }).map((s) => s.start.toISOString().slice(5, 16));
    assert.deepEqual(slots, [
      ...['08', '09', '10', '11', '12', '13', '14', '15'].map((h) => `03-28T${h}:00`),
      ...['07', '08', '10', '11', '12', '13', '14'].map((h) => `03-29T${h}:00`),
    ]);
  });
});
