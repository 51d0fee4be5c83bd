/**
 * Busy times from iCalendar text: an all-day event (DTSTART;VALUE=DATE, DTEND exclusive) is
 * busy for whole days of the calendar's zone, whatever the process's own zone; a calendar's
 * CALDAV:calendar-timezone names that zone when it is an IANA one.
 */
import { strict as assert } from 'node:assert';
import { busyFromEvents, calendarZone } from '../../src/connectors/caldav/busy-times';

const ics = (...lines: string[]) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//test//EN',
    'BEGIN:VEVENT',
    'UID:off',
    'DTSTAMP:20261101T000000Z',
    ...lines,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
const spans = (data: string, zone?: string) =>
  busyFromEvents(data, { start: new Date('2026-12-01T00:00:00Z'), end: new Date('2027-01-01T00:00:00Z') }, zone).map((b) => [
    b.start.toISOString(),
    b.end.toISOString(),
  ]);

describe('caldav busy times: all-day events', () => {
  it('are whole days of the zone: two days in Berlin, one in Tokyo without DTEND, UTC by default', () => {
    const twoDays = ics('DTSTART;VALUE=DATE:20261203', 'DTEND;VALUE=DATE:20261205');
    assert.deepEqual(spans(twoDays, 'Europe/Berlin'), [['2026-12-02T23:00:00.000Z', '2026-12-04T23:00:00.000Z']]);
    assert.deepEqual(spans(twoDays), [['2026-12-03T00:00:00.000Z', '2026-12-05T00:00:00.000Z']]);
    assert.deepEqual(spans(ics('DTSTART;VALUE=DATE:20261203'), 'Asia/Tokyo'), [['2026-12-02T15:00:00.000Z', '2026-12-03T15:00:00.000Z']]);
  });

  it('a recurring all-day event: each occurrence a day of the zone; a timed event is unchanged', () => {
    assert.deepEqual(spans(ics('DTSTART;VALUE=DATE:20261207', 'RRULE:FREQ=DAILY;COUNT=2'), 'America/New_York'), [
      ['2026-12-07T05:00:00.000Z', '2026-12-08T05:00:00.000Z'],
      ['2026-12-08T05:00:00.000Z', '2026-12-09T05:00:00.000Z'],
    ]);
    assert.deepEqual(spans(ics('DTSTART:20261207T100000Z', 'DTEND:20261207T113000Z'), 'America/New_York'), [
      ['2026-12-07T10:00:00.000Z', '2026-12-07T11:30:00.000Z'],
    ]);
  });

  it("reads the zone a calendar's calendar-timezone names, if IANA", () => {
    assert.equal(calendarZone('BEGIN:VCALENDAR\r\nBEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\nEND:VTIMEZONE\r\nEND:VCALENDAR'), 'Europe/Berlin');
    assert.equal(calendarZone('BEGIN:VTIMEZONE\r\nTZID:Mars Standard Time\r\nEND:VTIMEZONE'), undefined);
    assert.equal(calendarZone(''), undefined);
    assert.equal(calendarZone(undefined), undefined);
  });
});
