/**
 * Candidate self-scheduling's booking core against Debian's xandikos (two interviewer
 * calendars) and PostgreSQL: offered slots leave out the calendars' busy times; a booking
 * writes the event (one UID) into both calendars, which then show the time busy; two
 * candidates racing for one slot end with one booking; a calendar that refuses leaves no
 * claim and no event; a cancel removes the events, frees the slot and answers a CANCEL with
 * a higher SEQUENCE; tampered and expired scheduling links are refused with their codes.
 */
import { strict as assert } from 'node:assert';
import { caldavConnector } from '../../src/connectors/caldav';
import { CaldavCalendarConnector } from '../../src/connectors/caldav/caldav-calendar';
import {
  bookSlot,
  cancelBooking,
  offeredSlots,
  rescheduleBooking,
  type Interview,
  type InterviewerCalendar,
} from '../../src/features/scheduling/domain/bookings';
import type { CalendarConnector } from '../../src/features/scheduling/domain/calendar-port';
import { signSchedulingLink, verifySchedulingLink } from '../../src/features/scheduling/domain/scheduling-links';
import { bookingCandidateStore } from '../../src/features/scheduling/storage/booking-candidate-store';
import { KnexBookingRepository } from '../../src/features/scheduling/storage/knex-booking-repository';
import { isDomainError } from '../../src/kernel/errors';
import { migrateLatest } from '../../src/platform/database/migrator';
import { deriveKey } from '../../src/platform/security/key-derivation';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { startXandikos, type Xandikos } from '../helpers/xandikos';

const weekdays = { 1: [['09:00', '17:00']], 2: [['09:00', '17:00']], 3: [['09:00', '17:00']], 4: [['09:00', '17:00']], 5: [['09:00', '17:00']] } as const;
// Tuesday 1 December 2026, Berlin (UTC+1): working hours 08:00–16:00 UTC.
const window = { start: new Date('2026-12-01T00:00:00Z'), end: new Date('2026-12-02T00:00:00Z') };
const now = new Date('2026-11-25T12:00:00Z');
const at = (time: string) => new Date(`2026-12-01T${time}:00Z`);

const codeOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return isDomainError(error) ? error.code : `not a domain error: ${String(error)}`;
  }
  return 'no error';
};

describe('scheduling: booking slots against xandikos and PostgreSQL', function () {
  this.timeout(60_000);
  let dav: Xandikos;
  let database: TestDatabase;
  let repository: KnexBookingRepository;
  let grace: InterviewerCalendar;
  let alan: InterviewerCalendar;
  let request = 0;

  const interview = (interviewers = [grace, alan], candidate = { name: 'Ada Lovelace', email: 'Ada@Example.com' }): Interview => ({
    organizationId: 'org_acme',
    requestId: `sreq_${++request}`,
    summary: 'Interview: Ada Lovelace',
    organizer: { name: 'Acme Hiring', email: 'jobs@acme.example' },
    candidate,
    timezone: 'America/New_York',
    interviewers,
  });
  const calendarAt = (url: string) => new CaldavCalendarConnector(caldavConnector.settings.parse({ server_url: dav.url, calendar_url: url }), {});
  const bookings = () => database.db('hi_scheduling_bookings').where({ organization_id: 'org_acme' }).orderBy('calendar_key');

  before(async () => {
    [dav, database] = await Promise.all([startXandikos(), createTestDatabase()]);
    await migrateLatest(database.db);
    await database.db('hi_organizations').insert({ id: 'org_acme', name: 'Acme', created_at: now });
    const second = `${dav.url}user/calendars/alan/`;
    const made = await fetch(second, { method: 'MKCALENDAR' });
    assert.equal(made.status, 201, await made.text());
    repository = new KnexBookingRepository(database.db);
    grace = {
      key: dav.calendarUrl,
      person: { name: 'Grace Hopper', email: 'grace@acme.example' },
      zone: 'Europe/Berlin',
      hours: weekdays,
      calendar: calendarAt(dav.calendarUrl),
    };
    alan = { key: second, person: { name: 'Alan Turing', email: 'alan@acme.example' }, zone: 'Europe/London', hours: weekdays, calendar: calendarAt(second) };
  });
  after(async () => {
    await Promise.all([dav?.stop(), database?.drop()]);
  });

  it('offers only times free in both calendars and inside both working days', async () => {
    const query = { window, durationMinutes: 60, stepMinutes: 60 };
    const before = await offeredSlots([grace, alan], query);
    // Berlin 09–17 is 08–16 UTC, London 09–17 is 09–17 UTC: 09:00–16:00 UTC in common.
    assert.deepEqual(
      before.map((s) => s.start.toISOString().slice(11, 16)),
      ['09:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00'],
    );
    await alan.calendar.putEvent({
      uid: 'lunch@test',
      sequence: 0,
      summary: 'Lunch',
      start: at('12:00'),
      end: at('13:30'),
      organizer: alan.person,
      attendees: [],
    });
    const after = await offeredSlots([grace, alan], query);
    assert.deepEqual(
      after.map((s) => s.start.toISOString().slice(11, 16)),
      ['09:00', '10:00', '11:00', '14:00', '15:00'],
    );
  });

  it('a booking writes one event into both calendars, which then show the slot busy; erasure keeps the slot, not the name', async () => {
    const booked = interview();
    const event = await bookSlot(repository, booked, { start: at('09:00'), end: at('10:00') }, { bookingId: 'bkg_first', now });
    for (const interviewer of [grace, alan]) {
      const busy = await interviewer.calendar.busy(window);
      assert.ok(
        busy.some((b) => b.uid === event.uid && b.start.getTime() === at('09:00').getTime()),
        JSON.stringify(busy),
      );
    }
    const offered = await offeredSlots([grace, alan], { window, durationMinutes: 60, stepMinutes: 60 });
    assert.ok(!offered.some((s) => s.start.getTime() === at('09:00').getTime()));
    const rows = await bookings();
    assert.deepEqual(
      rows.map((r: { calendar_key: string; candidate_email: string; status: string }) => [r.calendar_key, r.candidate_email, r.status]),
      [alan.key, grace.key].map((key) => [key, 'ada@example.com', 'booked']),
    );
    const store = bookingCandidateStore(database.db);
    const subject = { organizationId: 'org_acme', profileUserId: 'usr_ada', emails: ['ADA@example.com'], phones: [] };
    assert.equal((await store.export(subject)).length, 2);
    assert.deepEqual(await store.erase(subject), { erased: 2 });
    assert.equal((await store.export(subject)).length, 0);
    assert.equal((await database.db('hi_scheduling_bookings').where({ id: 'bkg_first', status: 'booked', candidate_email: 'erased' })).length, 2);
  });

  it('two candidates racing for one slot: exactly one booking, the other is refused and the slot is no longer offered', async () => {
    const slot = { start: at('10:00'), end: at('11:00') };
    const results = await Promise.allSettled([
      bookSlot(repository, interview(), slot, { bookingId: 'bkg_race_a', now }),
      bookSlot(repository, interview([grace, alan], { name: 'Charles Babbage', email: 'charles@example.com' }), slot, { bookingId: 'bkg_race_b', now }),
    ]);
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1, JSON.stringify(results));
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    // The index decides (slot_taken); a loser that reads the calendars after the winner wrote them is told so first.
    assert.ok(isDomainError(lost.reason) && ['slot_taken', 'slot_unavailable'].includes(lost.reason.code), String(lost.reason));
    const live = await database.db('hi_scheduling_bookings').where({ starts_at: slot.start, status: 'booked' });
    assert.equal(live.length, 2); // one booking, one row per interviewer calendar
    assert.equal(new Set(live.map((r: { id: string }) => r.id)).size, 1);
    const offered = await offeredSlots([grace, alan], { window, durationMinutes: 60, stepMinutes: 60 });
    assert.ok(!offered.some((s) => s.start.getTime() === slot.start.getTime()), 'the won slot is busy in both calendars');
  });

  it('a calendar that refuses undoes the booking: no claim left, no event in the calendar that accepted', async () => {
    const refusing: CalendarConnector = {
      ...alan.calendar,
      busy: (range) => alan.calendar.busy(range),
      putEvent: () => Promise.reject(new Error('503 from the CalDAV server')),
      deleteEvent: () => Promise.resolve(),
      calendars: () => alan.calendar.calendars(),
      changes: (state) => alan.calendar.changes(state),
    };
    const failing = interview([grace, { ...alan, calendar: refusing }]);
    await assert.rejects(bookSlot(repository, failing, { start: at('11:00'), end: at('12:00') }, { bookingId: 'bkg_refused', now }), /503/);
    assert.equal((await database.db('hi_scheduling_bookings').where({ id: 'bkg_refused' })).length, 0);
    const busy = await grace.calendar.busy(window);
    assert.ok(!busy.some((b) => b.uid === 'itv-bkg_refused@hiring-integrations'), JSON.stringify(busy));
  });

  it('a cancel removes the events, frees the slot and answers a cancelled event with a higher SEQUENCE', async () => {
    const booked = interview();
    const slot = { start: at('14:00'), end: at('15:00') };
    await bookSlot(repository, booked, slot, { bookingId: 'bkg_cancel', now });
    const cancelled = await cancelBooking(repository, booked, now);
    assert.equal(cancelled?.status, 'cancelled');
    assert.equal(cancelled?.sequence, 1);
    assert.equal(cancelled?.uid, 'itv-bkg_cancel@hiring-integrations');
    for (const interviewer of [grace, alan]) {
      assert.ok(!(await interviewer.calendar.busy(window)).some((b) => b.uid === cancelled?.uid));
    }
    assert.equal(await cancelBooking(repository, booked, now), undefined); // nothing left to cancel
    // The freed slot can be booked again.
    await bookSlot(repository, interview(), slot, { bookingId: 'bkg_again', now });
  });

  it('a reschedule keeps the UID with a higher SEQUENCE in both calendars; a taken or busy slot is refused and changes nothing', async () => {
    const booked = interview();
    await bookSlot(repository, booked, { start: at('11:00'), end: at('11:30') }, { bookingId: 'bkg_move', now });
    // 12:00 is in Alan's lunch (written after the slots were offered): refused, as on first booking.
    assert.equal(await codeOf(rescheduleBooking(repository, booked, { start: at('12:00'), end: at('13:00') }, now)), 'slot_unavailable');
    assert.equal(
      await codeOf(bookSlot(repository, interview(), { start: at('12:00'), end: at('13:00') }, { bookingId: 'bkg_lunch', now })),
      'slot_unavailable',
    );
    // Moving by a quarter of an hour overlaps the interview's own old time: allowed.
    const moved = await rescheduleBooking(repository, booked, { start: at('11:15'), end: at('11:45') }, now);
    assert.equal(moved.uid, 'itv-bkg_move@hiring-integrations');
    assert.equal(moved.sequence, 1);
    for (const interviewer of [grace, alan]) {
      const stored = await fetch(new URL(`${encodeURIComponent(moved.uid)}.ics`, interviewer.key)).then((r) => r.text());
      assert.match(stored, /SEQUENCE:1\r\n/);
      assert.match(stored, /DTSTART:20261201T111500Z/);
      const busy = (await interviewer.calendar.busy(window)).filter((b) => b.uid === moved.uid);
      assert.deepEqual(
        busy.map((b) => b.start.toISOString()),
        [at('11:15').toISOString()],
      );
    }
    // 10:00 went to the race's winner: moving there is refused and the booking stays at 11:15.
    assert.equal(await codeOf(rescheduleBooking(repository, booked, { start: at('10:00'), end: at('11:00') }, now)), 'slot_unavailable');
    const rows = await database.db('hi_scheduling_bookings').where({ id: 'bkg_move' });
    assert.deepEqual(
      rows.map((r: { starts_at: Date; sequence: number }) => [new Date(r.starts_at).toISOString(), r.sequence]),
      [
        [at('11:15').toISOString(), 1],
        [at('11:15').toISOString(), 1],
      ],
    );
  });

  it('scheduling links: a valid one opens, a tampered, truncated, foreign-key or expired one is refused with its code', () => {
    const key = deriveKey(Buffer.alloc(32, 7), 'scheduling-links');
    const claims = { organizationId: 'org_acme', requestId: 'sreq_1', expiresAt: new Date('2026-12-01T00:00:00Z') };
    const token = signSchedulingLink(key, claims);
    assert.deepEqual(verifySchedulingLink(key, token, now), claims);
    const [payload, signature] = token.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify({ o: 'org_other', r: 'sreq_1', e: 1_800_000_000 })).toString('base64url');
    const code = (t: string, k = key, at = now) => {
      try {
        verifySchedulingLink(k, t, at);
        return 'accepted';
      } catch (error) {
        return isDomainError(error) ? error.code : String(error);
      }
    };
    assert.equal(code(`${forged}.${signature}`), 'scheduling_link_invalid');
    assert.equal(code(`${payload}.${signature.slice(0, -2)}`), 'scheduling_link_invalid');
    assert.equal(code(payload), 'scheduling_link_invalid');
    assert.equal(code(`${token}.x`), 'scheduling_link_invalid');
    assert.equal(code(''), 'scheduling_link_invalid');
    assert.equal(code(token, deriveKey(Buffer.alloc(32, 8), 'scheduling-links')), 'scheduling_link_invalid');
    assert.equal(code(token, key, new Date('2026-12-01T00:00:01Z')), 'scheduling_link_expired');
    // A key for another purpose never verifies a scheduling link.
    assert.equal(code(token, deriveKey(Buffer.alloc(32, 7), 'candidate-export-links')), 'scheduling_link_invalid');
  });

  it('the unique index alone keeps a booked slot: a calendar that forgot the event (busy answers nothing) still gets slot_taken, even after erasure', async () => {
    const forgetful: CalendarConnector = {
      busy: () => Promise.resolve([]),
      putEvent: (event) => grace.calendar.putEvent(event),
      deleteEvent: (uid) => grace.calendar.deleteEvent(uid),
      calendars: () => grace.calendar.calendars(),
      changes: (state) => grace.calendar.changes(state),
    };
    const single = interview([{ ...grace, calendar: forgetful }]);
    assert.equal(await codeOf(bookSlot(repository, single, { start: at('09:00'), end: at('10:00') }, { bookingId: 'bkg_dup', now })), 'slot_taken');
    // Against the real calendar the check before the claim already sees the event.
    assert.equal(
      await codeOf(bookSlot(repository, interview([grace]), { start: at('09:00'), end: at('10:00') }, { bookingId: 'bkg_dup2', now })),
      'slot_unavailable',
    );
  });
});
