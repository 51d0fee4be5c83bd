/**
 * Time off spans (pure): all-day time off runs from local midnight of the first day to local
 * midnight after the last, across zones and DST changes (property: the span starts and ends at
 * 00:00 wall-clock in the zone and covers exactly the number of calendar days given, whatever
 * their length in hours); concrete: Berlin's spring-forward day is 23 hours, its fall-back 25.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { timeOffPayload, timeOffSpan, timeOffUid } from '../../src/features/availability/domain/time-off';

const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'America/Santiago', 'Australia/Lord_Howe', 'Pacific/Chatham', 'Asia/Kathmandu'];
const DST_DAYS = ['2026-03-08', '2026-03-29', '2026-04-05', '2026-09-27', '2026-10-04', '2026-10-25', '2026-11-01'];
const person = { email: 'grace@acme.example' };
const span = (payload: Record<string, unknown>) => timeOffSpan(timeOffPayload.parse(payload));

describe('availability: time off spans across zones and DST changes', () => {
  it('all-day time off is local midnight to local midnight, covering exactly the days given', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.constantFrom(...DST_DAYS),
        fc.integer({ min: -2, max: 1 }),
        fc.integer({ min: 0, max: 3 }),
        (zone, dst, offset, extra) => {
          const first = DateTime.fromISO(dst, { zone }).plus({ days: offset });
          const last = first.plus({ days: extra });
          const s = span({ time_off_id: 'p', person, start_date: first.toISODate(), end_date: last.toISODate(), timezone: zone });
          const start = DateTime.fromJSDate(s.start, { zone });
          const end = DateTime.fromJSDate(s.end, { zone });
          assert.ok(s.allDay);
          // The span starts on the first day and ends on the day after the last, in the zone (Santiago's April change repeats its midnight: either instant is that day).
          assert.equal(start.toISODate(), first.toISODate());
          assert.equal(end.toISODate(), last.plus({ days: 1 }).toISODate());
          assert.equal(Math.round(end.startOf('day').diff(start.startOf('day'), 'days').days), extra + 1);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("Berlin's spring-forward day off is 23 hours, its fall-back day 25; a timed span keeps its instants", () => {
    const hours = (d: string) => {
      const s = span({ time_off_id: 'p', person, start_date: d, end_date: d, timezone: 'Europe/Berlin' });
      return (s.end.getTime() - s.start.getTime()) / 3_600_000;
    };
    assert.equal(hours('2026-03-29'), 23);
    assert.equal(hours('2026-10-25'), 25);
    assert.equal(hours('2026-06-01'), 24);
    const timed = span({ time_off_id: 'p', person, starts_at: '2026-03-29T01:30:00+01:00', ends_at: '2026-03-29T03:30:00+02:00', timezone: 'Europe/Berlin' });
    assert.equal(timed.start.toISOString(), '2026-03-29T00:30:00.000Z');
    assert.equal(timed.end.toISOString(), '2026-03-29T01:30:00.000Z');
  });

  it('the event UID is stable per organization and time off, and names neither', () => {
    assert.equal(timeOffUid('org_a', 'pto_1'), timeOffUid('org_a', 'pto_1'));
    assert.notEqual(timeOffUid('org_a', 'pto_1'), timeOffUid('org_b', 'pto_1'));
    assert.doesNotMatch(timeOffUid('org_a', 'pto_1'), /org_a|pto_1/);
  });
});
