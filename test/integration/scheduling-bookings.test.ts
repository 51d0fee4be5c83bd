/**
 * Candidate self-scheduling's booking core against Debian's xandikos (two interviewer
 * calendars) and PostgreSQL: offered slots leave out the calendars' busy times; a booking
 * writes the event (one UID) into both calendars, which then show the time busy; two
 * candidates racing for one slot end with one booking; a calendar that refuses leaves no
 * claim and no event; a cancel removes the events, frees the slot and answers a CANCEL with
 * a higher SEQUENCE; tampered and expired scheduling links are refused with their codes.
 *
 * Availability sync, on a third calendar: an event written straight into the server reaches the
 * busy-time cache at the next sync (not before: the cache answers while fresh) and removes slots,
 * its deletion frees them (an incremental sync); a sync token the server refuses ends in a full
 * read; time off from the hook blocks slots and is a VEVENT in the person's calendar (same UID,
 * higher SEQUENCE on change), cancelling removes it; a server answering garbage, nothing, or
 * without the calendar gives a failed run with its code; the job syncs licensed calendars only.
 */
import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DateTime } from 'luxon';
import { ActionRunner } from '../../src/features/action-runs/domain/action-runner';
import { KnexActionRunRepository } from '../../src/features/action-runs/storage/knex-action-run-repository';
import { AvailabilitySync, type CalendarOpener } from '../../src/features/availability/domain/availability-sync';
import { AvailableCalendars } from '../../src/features/availability/domain/available-calendars';
import { timeOffUid } from '../../src/features/availability/domain/time-off';
import { TimeOffCancelledHandler, TimeOffCreatedHandler, TimeOffUpdatedHandler } from '../../src/features/availability/domain/time-off-handlers';
import { TimeOffService } from '../../src/features/availability/domain/time-off-service';
import type { CalendarRef } from '../../src/features/availability/domain/tracked-calendar';
import { timeOffCandidateStore } from '../../src/features/availability/storage/availability-candidate-stores';
import { KnexTimeOff } from '../../src/features/availability/storage/knex-time-off';
import { KnexTrackedCalendars } from '../../src/features/availability/storage/knex-tracked-calendars';
import type { Logger } from '../../src/kernel/logger';
import { freePort } from '../helpers/processes';
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

  it('the database keeps one live booking per request: a second claim (another time) or a second move at one SEQUENCE is booking_in_progress', async () => {
    // Straight at the repository, as two processes would: no calendar read or lock decides it.
    const claim = (id: string, time: string) => ({
      id,
      organizationId: 'org_acme',
      requestId: 'sreq_one_link',
      calendarKeys: ['cal-one-link-a', 'cal-one-link-b'],
      eventUid: `itv-${id}@hiring-integrations`,
      slot: { start: at(time), end: at(time.replace(':00', ':45')) },
      candidate: { name: 'Kim', email: 'kim@example.com' },
    });
    const results = await Promise.allSettled([repository.claim(claim('bkg_link_a', '06:00'), now), repository.claim(claim('bkg_link_b', '07:00'), now)]);
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1, JSON.stringify(results));
    const lost = (results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason;
    assert.ok(isDomainError(lost) && lost.code === 'booking_in_progress' && lost.kind === 'conflict', String(lost));
    const live = await database.db('hi_scheduling_bookings').where({ request_id: 'sreq_one_link', status: 'booked' });
    assert.deepEqual([live.length, new Set(live.map((r: { id: string }) => r.id)).size], [2, 1]);
    const id = live[0].id as string;
    const moves = await Promise.allSettled([
      repository.move('org_acme', id, { start: at('06:15'), end: at('07:15') }, 1, now),
      repository.move('org_acme', id, { start: at('06:30'), end: at('07:30') }, 1, now),
    ]);
    assert.equal(moves.filter((r) => r.status === 'fulfilled').length, 1, JSON.stringify(moves));
    const stale = (moves.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason;
    assert.ok(isDomainError(stale) && stale.code === 'booking_in_progress', String(stale));
    // Cancelled, the request may book again.
    await repository.markCancelled('org_acme', id, 2, now);
    await repository.claim(claim('bkg_link_c', '07:00'), now);
    await repository.release('org_acme', 'bkg_link_c');
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

  it('the database alone keeps a booked slot: a calendar that forgot the event (busy answers nothing) still gets slot_taken, for the same or an overlapping time, even after erasure', async () => {
    const forgetful: CalendarConnector = {
      busy: () => Promise.resolve([]),
      putEvent: (event) => grace.calendar.putEvent(event),
      deleteEvent: (uid) => grace.calendar.deleteEvent(uid),
      calendars: () => grace.calendar.calendars(),
      changes: (state) => grace.calendar.changes(state),
    };
    const single = interview([{ ...grace, calendar: forgetful }]);
    assert.equal(await codeOf(bookSlot(repository, single, { start: at('09:00'), end: at('10:00') }, { bookingId: 'bkg_dup', now })), 'slot_taken');
    // Other starts overlapping it, later or earlier (the claim's overlap check: the index is on the start alone); no claim left.
    assert.equal(await codeOf(bookSlot(repository, single, { start: at('09:30'), end: at('10:30') }, { bookingId: 'bkg_dup3', now })), 'slot_taken');
    assert.equal(await codeOf(bookSlot(repository, single, { start: at('08:30'), end: at('09:30') }, { bookingId: 'bkg_dup4', now })), 'slot_taken');
    assert.equal((await repository.claimed(single.organizationId, [grace.key], { start: at('08:00'), end: at('09:45') })).length, 1);
    // Against the real calendar the check before the claim already sees the event.
    assert.equal(
      await codeOf(bookSlot(repository, interview([grace]), { start: at('09:00'), end: at('10:00') }, { bookingId: 'bkg_dup2', now })),
      'slot_unavailable',
    );
  });

  describe('availability sync: busy-time cache and time off (xandikos, PostgreSQL)', () => {
    const ORG = 'org_avail';
    // The busy cache covers the next 120 days from the (real) time of its full read: a window a week ahead, in UTC working hours.
    const day = new Date(Date.now() + 7 * 86_400_000);
    day.setUTCHours(0, 0, 0, 0);
    while ([0, 6].includes(day.getUTCDay())) day.setUTCDate(day.getUTCDate() + 1);
    const isoDay = day.toISOString().slice(0, 10);
    const dayAt = (hhmm: string) => new Date(`${isoDay}T${hhmm}:00Z`);
    const dayWindow = { start: dayAt('00:00'), end: new Date(day.getTime() + 86_400_000) };
    const dayQuery = { window: dayWindow, durationMinutes: 60, stepMinutes: 60 };
    const hours = (slots: { start: Date }[]) => slots.map((s) => s.start.toISOString().slice(11, 16));
    const ALL_DAY = ['09:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00'];

    const silent: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };

    const vevent = (uid: string, start: Date, end: Date, summary = 'Dentist (private)') =>
      [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//test//EN',
        'BEGIN:VEVENT',
        `UID:${uid}`,
        'DTSTAMP:20261101T000000Z',
        `DTSTART:${start.toISOString().replace(/[-:]|\.\d+/g, '')}`,
        `DTEND:${end.toISOString().replace(/[-:]|\.\d+/g, '')}`,
        `SUMMARY:${summary}`,
        'ATTENDEE:mailto:someone@private.example',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n');

    let calendarUrl: string;

    let garbage: Server;
    let garbageUrl: string;
    let calendars: KnexTrackedCalendars;
    let sync: AvailabilitySync;
    let timeOff: TimeOffService;
    let available: AvailableCalendars;
    let runner: ActionRunner;
    let followed: InterviewerCalendar;
    const ref = (): CalendarRef => ({ organizationId: ORG, connectionId: 'conn_dav', calendarUrl: calendarUrl });
    // Connections by id, as the resolver would open them: xandikos, a server answering garbage, a closed port.
    const servers: Record<string, () => string> = {
      conn_dav: () => dav.url,
      conn_garbage: () => garbageUrl,
      conn_closed: () => closedUrl,
    };
    let closedUrl: string;
    const opener: CalendarOpener = {
      async open(r) {
        const settings = caldavConnector.settings.parse({ server_url: servers[r.connectionId]!(), ...(r.calendarUrl ? { calendar_url: r.calendarUrl } : {}) });
        return { calendar: new CaldavCalendarConnector(settings, {}), connector: 'caldav', livemode: false };
      },
    };
    const put = async (uid: string, start: Date, end: Date) => {
      const response = await fetch(`${calendarUrl}${uid}.ics`, {
        method: 'PUT',
        headers: { 'content-type': 'text/calendar' },
        body: vevent(uid, start, end),
      });
      assert.ok(response.status === 201 || response.status === 204, `PUT ${response.status}`);
    };
    const runs = (step: string) =>
      database.db('hi_action_runs').where({ organization_id: ORG, action: 'scheduling.availability_sync', step }).orderBy('created_at');
    const syncGrace = async () => {
      const tracked = (await calendars.find(ref()))!;
      return sync.sync(tracked);
    };

    before(async () => {
      calendarUrl = `${dav.url}user/calendars/grace-followed/`;
      const made = await fetch(calendarUrl, { method: 'MKCALENDAR' });
      assert.equal(made.status, 201, await made.text());
      closedUrl = `http://127.0.0.1:${await freePort()}/`;
      garbage = createServer((_req, res) => {
        res.writeHead(207, { 'content-type': 'application/xml' });
        res.end('<<<not xml at all & {"json": maybe}');
      });
      await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
      garbageUrl = `http://127.0.0.1:${(garbage.address() as AddressInfo).port}/`;
      await database.db('hi_organizations').insert([
        { id: ORG, name: 'Avail', created_at: new Date() },
        { id: 'org_unlicensed', name: 'Unlicensed', created_at: new Date() },
      ]);
      calendars = new KnexTrackedCalendars(database.db);
      const store = new KnexTimeOff(database.db);
      runner = new ActionRunner(new KnexActionRunRepository(database.db), { publish: async () => {} }, silent, () => new Date());
      sync = new AvailabilitySync(
        calendars,
        opener,
        runner,
        async (org) => org === ORG,
        () => new Date(),
      );
      timeOff = new TimeOffService(store, calendars, opener, runner, () => new Date());
      available = new AvailableCalendars(
        calendars,
        store,
        async (org) => org === ORG,
        () => new Date(),
      );
      const live = (await opener.open(ref())).calendar;
      followed = {
        key: calendarUrl,
        person: { name: 'Grace Hopper', email: 'grace@acme.example' },
        zone: 'UTC',
        hours: weekdays,
        calendar: await available.wrap({ ...ref(), email: 'Grace@Acme.example' }, live),
      };
    });
    after(async () => {
      await new Promise((r) => (garbage ? garbage.close(r) : r(undefined)));
    });

    it('an event written straight into the server reaches the cache at the next sync and removes its slots; the cache keeps no title or attendee', async () => {
      assert.deepEqual((await calendars.byEmail(ORG, 'grace@acme.example')).length, 1, 'scheduling enrolled the calendar');
      const first = await syncGrace();
      assert.equal(first.status, 'succeeded', JSON.stringify(first));
      assert.deepEqual(hours(await offeredSlots([followed], dayQuery)), ALL_DAY);

      await put('dentist', dayAt('10:00'), dayAt('11:30'));
      // Until the next sync the fresh cache answers: the new event is not seen yet (the live read would see it).
      assert.deepEqual(hours(await offeredSlots([followed], dayQuery)), ALL_DAY);
      assert.ok((await followed.calendar.liveBusy!(dayWindow)).some((b) => b.uid === 'dentist'));

      const second = await syncGrace();
      assert.equal(second.status, 'succeeded', JSON.stringify(second));
      assert.deepEqual(hours(await offeredSlots([followed], dayQuery)), ['09:00', '12:00', '13:00', '14:00', '15:00', '16:00']);
      const rows = await database.db('hi_availability_busy').where({ organization_id: ORG });
      assert.equal(rows.length, 1);
      assert.deepEqual(Object.keys(rows[0]).sort(), ['calendar_id', 'ends_at', 'event_url', 'id', 'organization_id', 'starts_at', 'uid']);
      assert.equal(rows[0].uid, 'dentist');
      assert.ok(!JSON.stringify(rows).includes('Dentist') && !JSON.stringify(rows).includes('private.example'));

      const recorded = await runs('calendar_sync');
      assert.equal(recorded.length, 2);
      assert.ok(recorded.every((r: { status: string }) => r.status === 'succeeded'));
      assert.deepEqual(typeof recorded[1].result === 'string' ? JSON.parse(recorded[1].result) : recorded[1].result, { full: false, changed: 1, removed: 0 });
    });

    it('an all-day event is busy for that day in the calendar’s zone (the connection’s timezone, else UTC); the sync reads it the same', async () => {
      const compact = (d: Date) => d.toISOString().slice(0, 10).replace(/-/g, '');
      const next = new Date(day.getTime() + 86_400_000);
      const allDay = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', 'BEGIN:VEVENT', 'UID:conference', 'DTSTAMP:20261101T000000Z'];
      const body = [
        ...allDay,
        `DTSTART;VALUE=DATE:${compact(day)}`,
        `DTEND;VALUE=DATE:${compact(next)}`,
        'SUMMARY:Conference',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ];
      const response = await fetch(`${calendarUrl}conference.ics`, { method: 'PUT', headers: { 'content-type': 'text/calendar' }, body: body.join('\r\n') });
      assert.ok(response.status === 201 || response.status === 204, `PUT ${response.status}`);
      const connector = (timezone?: string) =>
        new CaldavCalendarConnector(caldavConnector.settings.parse({ server_url: dav.url, calendar_url: calendarUrl, ...(timezone ? { timezone } : {}) }), {});
      const wide = { start: new Date(day.getTime() - 86_400_000), end: new Date(day.getTime() + 2 * 86_400_000) };
      const conference = (busy: { uid?: string; start: Date; end: Date }[]) =>
        busy.filter((b) => b.uid === 'conference').map((b) => [b.start.toISOString(), b.end.toISOString()]);
      // The zone's midnights (luxon, DST-aware): Berlin in winter from 23:00 UTC the evening before to 23:00 UTC.
      const dayIn = (zone: string) => {
        const start = DateTime.fromISO(isoDay, { zone }).startOf('day');
        return [[start.toUTC().toISO(), start.plus({ days: 1 }).toUTC().toISO()]];
      };
      assert.deepEqual(conference(await connector('Europe/Berlin').busy(wide)), dayIn('Europe/Berlin'));
      assert.deepEqual(conference(await connector('America/New_York').busy(wide)), dayIn('America/New_York'));
      assert.deepEqual(conference(await connector().busy(wide)), [[dayWindow.start.toISOString(), dayWindow.end.toISOString()]]);
      assert.throws(() => caldavConnector.settings.parse({ server_url: dav.url, timezone: 'Mars/Olympus' }));
      // The sync's full read places it the same way.
      assert.deepEqual(conference((await connector('Europe/Berlin').changes()).changed.flatMap((c) => c.busy)), dayIn('Europe/Berlin'));
      const removed = await fetch(`${calendarUrl}conference.ics`, { method: 'DELETE' });
      assert.ok(removed.ok, `DELETE ${removed.status}`);
    });

    it('a deleted event frees its slots after the next (incremental) sync', async () => {
      const response = await fetch(`${calendarUrl}dentist.ics`, { method: 'DELETE' });
      assert.ok(response.status === 204 || response.status === 200, `DELETE ${response.status}`);
      assert.equal((await syncGrace()).status, 'succeeded');
      assert.deepEqual(hours(await offeredSlots([followed], dayQuery)), ALL_DAY);
      assert.equal((await database.db('hi_availability_busy').where({ organization_id: ORG })).length, 0);
      const last = (await runs('calendar_sync')).at(-1);
      assert.equal((typeof last.result === 'string' ? JSON.parse(last.result) : last.result).removed, 1);
    });

    it('a sync token the server refuses ends in a full read, and the cache is right again', async () => {
      await put('standup', dayAt('14:00'), dayAt('15:00'));
      const bogus = Buffer.from(JSON.stringify({ syncToken: 'http://xandikos.invalid/sync/nonsense' })).toString('base64url');
      await database.db('hi_availability_calendars').where({ organization_id: ORG }).update({ sync_state: bogus });
      assert.equal((await syncGrace()).status, 'succeeded');
      const last = (await runs('calendar_sync')).at(-1);
      assert.equal((typeof last.result === 'string' ? JSON.parse(last.result) : last.result).full, true);
      assert.deepEqual(hours(await offeredSlots([followed], dayQuery)), ['09:00', '10:00', '11:00', '12:00', '13:00', '15:00', '16:00']);
      await fetch(`${calendarUrl}standup.ics`, { method: 'DELETE' });
      await syncGrace();
    });

    it('time off from the hook blocks slots and is a VEVENT in the person’s calendar; an update replaces it, a cancel removes it', async () => {
      const created = new TimeOffCreatedHandler(timeOff);
      const report = await created.handle(ORG, {
        time_off_id: 'pto_1',
        person: { email: 'GRACE@acme.example', name: 'Grace Hopper' },
        starts_at: `${isoDay}T13:00:00+00:00`,
        ends_at: `${isoDay}T15:00:00+00:00`,
        timezone: 'Europe/Berlin',
        reason: 'medical appointment',
      });
      assert.equal((report.calendars as { status: string }[])[0]?.status, 'succeeded', JSON.stringify(report));
      assert.deepEqual(hours(await offeredSlots([followed], dayQuery)), ['09:00', '10:00', '11:00', '12:00', '15:00', '16:00']);
      const uid = timeOffUid(ORG, 'pto_1');
      const url = `${calendarUrl}${encodeURIComponent(uid)}.ics`;
      let ics = await (await fetch(url)).text();
      assert.match(ics, /BEGIN:VEVENT/);
      assert.match(ics, new RegExp(`UID:${uid.slice(0, 40)}`));
      assert.match(ics, /SUMMARY:Out of office/);
      assert.match(ics, /SEQUENCE:0/);
      assert.doesNotMatch(ics, /medical/, 'the reason stays with the plugin');

      // The same report again is the same version: no second write.
      await created.handle(ORG, {
        time_off_id: 'pto_1',
        person: { email: 'GRACE@acme.example', name: 'Grace Hopper' },
        starts_at: `${isoDay}T13:00:00+00:00`,
        ends_at: `${isoDay}T15:00:00+00:00`,
        timezone: 'Europe/Berlin',
        reason: 'medical appointment',
      });
      assert.equal((await runs('calendar')).length, 1);

      // All day in Berlin: from Berlin's midnight (23:00 UTC the day before) to the next one.
      const updated = await new TimeOffUpdatedHandler(timeOff).handle(ORG, {
        time_off_id: 'pto_1',
        person: { email: 'grace@acme.example' },
        start_date: isoDay,
        end_date: isoDay,
        timezone: 'Europe/Berlin',
      });
      assert.equal(updated.sequence, 1);
      assert.deepEqual(hours(await offeredSlots([followed], dayQuery)), []);
      ics = await (await fetch(url)).text();
      assert.match(ics, /SEQUENCE:1/);
      // An all-day event, not Berlin's midnights in UTC: dates, DTEND the day after the last (exclusive).
      const compact = (d: Date) => d.toISOString().slice(0, 10).replace(/-/g, '');
      assert.match(ics, new RegExp(`^DTSTART;VALUE=DATE:${compact(day)}\r?$`, 'm'));
      assert.match(ics, new RegExp(`^DTEND;VALUE=DATE:${compact(new Date(day.getTime() + 86_400_000))}\r?$`, 'm'));
      // Read back from the server, it is busy for the day of the calendar's zone (this calendar declares none: UTC).
      assert.deepEqual(
        (await (await opener.open(ref())).calendar.busy(dayWindow)).filter((b) => b.uid === uid).map((b) => [b.start.toISOString(), b.end.toISOString()]),
        [[dayWindow.start.toISOString(), dayWindow.end.toISOString()]],
      );

      const cancelled = await new TimeOffCancelledHandler(timeOff).handle(ORG, { time_off_id: 'pto_1' });
      assert.equal(cancelled.status, 'cancelled');
      assert.equal((await fetch(url)).status, 404);
      assert.deepEqual(hours(await offeredSlots([followed], dayQuery)), ALL_DAY);
      const writes = await runs('calendar');
      assert.deepEqual(
        writes.map((r: { status: string; hook: string }) => `${r.hook} ${r.status}`),
        ['time_off.updated succeeded', 'time_off.updated succeeded', 'time_off.cancelled succeeded'],
      );

      // A cancelled time off stays cancelled: new time off comes under a new id.
      await assert.rejects(
        new TimeOffUpdatedHandler(timeOff).handle(ORG, {
          time_off_id: 'pto_1',
          person: { email: 'grace@acme.example' },
          start_date: isoDay,
          end_date: isoDay,
          timezone: 'UTC',
        }),
        (error: unknown) => isDomainError(error) && error.code === 'time_off_cancelled',
      );

      const store = timeOffCandidateStore(database.db);
      const subject = { organizationId: ORG, profileUserId: 'usr_grace', emails: ['Grace@acme.example'], phones: [] };
      const exported = await store.export(subject);
      assert.equal(exported.length, 1);
      assert.equal(exported[0]!.reason, null, 'the update carried no reason');
      assert.deepEqual(await store.erase(subject), { erased: 1 });
    });

    it('refuses a time-off payload that does not parse, naming the field', async () => {
      const code = async (payload: Record<string, unknown>) => {
        try {
          await new TimeOffCreatedHandler(timeOff).handle(ORG, payload);
          return 'no error';
        } catch (error) {
          return isDomainError(error) ? `${error.code} ${String(error.details.param ?? '')}` : String(error);
        }
      };
      const person = { email: 'grace@acme.example' };
      assert.equal(await code({ time_off_id: 'x', person, starts_at: `${isoDay}T13:00:00Z`, timezone: 'Mars/Olympus' }), 'invalid_payload timezone');
      assert.equal(await code({ time_off_id: 'x', person, starts_at: `${isoDay}T13:00:00Z`, timezone: 'UTC' }), 'invalid_payload ends_at');
      assert.equal(await code({ time_off_id: 'x', person, start_date: isoDay, end_date: '2020-01-01', timezone: 'UTC' }), 'invalid_payload end_date');
      assert.equal(await code({ time_off_id: 'x', person, start_date: '2026-02-30', end_date: isoDay, timezone: 'UTC' }), 'invalid_payload start_date');
      assert.equal(
        await code({ time_off_id: 'x', person: { email: 'nope' }, start_date: isoDay, end_date: isoDay, timezone: 'UTC' }),
        'invalid_payload person.email',
      );
    });

    it('garbage from the server, no server, or no such calendar: a failed run with its code, and the cache stops answering once stale', async () => {
      const cases: Array<[string, string | undefined, string]> = [
        ['conn_garbage', undefined, 'connection_protocol_error'],
        ['conn_closed', undefined, 'connection_unreachable'],
        ['conn_dav', 'user/calendars/gone/', 'calendar_not_found'],
      ];
      for (const [connectionId, path, expected] of cases) {
        const tracked = await calendars.enroll(
          { organizationId: ORG, connectionId, ...(path ? { calendarUrl: `${dav.url}${path}` } : {}) },
          'ops@acme.example',
          new Date(),
        );
        const outcome = await sync.sync(tracked);
        assert.equal(outcome.status, 'failed', `${connectionId}: ${JSON.stringify(outcome)}`);
        assert.equal(outcome.errorCode, expected, `${connectionId}: ${JSON.stringify(outcome)}`);
        const run = await database
          .db('hi_action_runs')
          .where({ organization_id: ORG, connection_id: connectionId, step: 'calendar_sync' })
          .orderBy('created_at', 'desc')
          .first();
        assert.equal(run.status, 'failed');
        assert.equal(run.error_code, expected);
        assert.equal((await calendars.find(tracked))!.lastErrorCode, expected);
      }
      // Grace's cache, synced an hour ago, no longer answers: a slot dayQuery reads the server live.
      await database
        .db('hi_availability_calendars')
        .where({ organization_id: ORG, connection_id: 'conn_dav' })
        .update({ synced_at: new Date(Date.now() - 3600_000) });
      await put('late', dayAt('09:00'), dayAt('10:00'));
      assert.deepEqual(hours(await offeredSlots([followed], dayQuery)), ALL_DAY.slice(1));
    });

    it('the repeating job syncs what is due for licensed organizations only; an unchanged calendar is an empty incremental sync', async () => {
      const stranger = await calendars.enroll(
        { organizationId: 'org_unlicensed', connectionId: 'conn_dav', calendarUrl: calendarUrl },
        'x@globex.example',
        new Date(),
      );
      const later = (minutes: number) =>
        new AvailabilitySync(
          calendars,
          opener,
          runner,
          async (org) => org === ORG,
          () => new Date(Date.now() + minutes * 60_000),
        );
      const outcomes = await later(10).syncDue();
      const tracked = (await calendars.find(ref()))!;
      assert.deepEqual(outcomes.map((o) => `${o.calendarId === tracked.id ? 'grace' : 'other'} ${o.status}`).sort(), [
        'grace succeeded',
        'other failed',
        'other failed',
        'other failed',
      ]);
      const skipped = (await calendars.find(stranger))!;
      assert.equal(skipped.syncedAt, undefined, 'not synced without the license');
      assert.equal((await database.db('hi_action_runs').where({ organization_id: 'org_unlicensed' })).length, 0);
      // Nothing is due again within the interval; after it, Grace's unchanged calendar answers an empty incremental sync.
      assert.deepEqual(await later(11).syncDue(), []);
      const again = await later(20).syncDue();
      assert.equal(again.find((o) => o.calendarId === tracked.id)?.status, 'succeeded');
      const last = await database
        .db('hi_action_runs')
        .where({ id: again.find((o) => o.calendarId === tracked.id)!.runId })
        .first();
      assert.deepEqual(typeof last.result === 'string' ? JSON.parse(last.result) : last.result, { full: false, changed: 0, removed: 0 });
      // The three broken calendars failed twice in a row: they wait 5 minutes beyond the interval, Grace does not.
      assert.deepEqual(again.filter((o) => o.status === 'failed').length, 3);
      assert.equal(again.length, 4);
      assert.deepEqual(
        (await later(29).syncDue()).map((o) => `${o.calendarId === tracked.id ? 'grace' : 'other'} ${o.status}`),
        ['grace succeeded'],
      );
    });
  });
});
