/**
 * Availability sync against Debian's xandikos and PostgreSQL: an event written straight into
 * the server reaches the busy-time cache at the next sync (not before: the cache answers while
 * fresh) and removes slots, its deletion frees them (an incremental sync); a sync token the
 * server refuses ends in a full read; time off from the hook blocks slots and is a VEVENT in
 * the person's calendar (same UID, higher SEQUENCE on change), cancelling removes it; a
 * server answering garbage, nothing, or without the calendar gives a failed run with its code.
 */
import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { caldavConnector } from '../../src/connectors/caldav';
import { CaldavCalendarConnector } from '../../src/connectors/caldav/caldav-calendar';
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
import { offeredSlots, type InterviewerCalendar } from '../../src/features/scheduling/domain/bookings';
import { isDomainError } from '../../src/kernel/errors';
import type { Logger } from '../../src/kernel/logger';
import { migrateLatest } from '../../src/platform/database/migrator';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { freePort } from '../helpers/processes';
import { startXandikos, type Xandikos } from '../helpers/xandikos';

const ORG = 'org_avail';
const weekdays = { 1: [['09:00', '17:00']], 2: [['09:00', '17:00']], 3: [['09:00', '17:00']], 4: [['09:00', '17:00']], 5: [['09:00', '17:00']] } as const;
// The busy cache covers the next 120 days from the (real) time of its full read: a window a week ahead, in UTC working hours.
const day = new Date(Date.now() + 7 * 86_400_000);
day.setUTCHours(0, 0, 0, 0);
while ([0, 6].includes(day.getUTCDay())) day.setUTCDate(day.getUTCDate() + 1);
const isoDay = day.toISOString().slice(0, 10);
const at = (hhmm: string) => new Date(`${isoDay}T${hhmm}:00Z`);
const window = { start: at('00:00'), end: new Date(day.getTime() + 86_400_000) };
const query = { window, durationMinutes: 60, stepMinutes: 60 };
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

describe('availability sync: busy-time cache and time off against xandikos and PostgreSQL', function () {
  this.timeout(60_000);
  let dav: Xandikos;
  let database: TestDatabase;
  let garbage: Server;
  let garbageUrl: string;
  let calendars: KnexTrackedCalendars;
  let sync: AvailabilitySync;
  let timeOff: TimeOffService;
  let available: AvailableCalendars;
  let runner: ActionRunner;
  let grace: InterviewerCalendar;
  const ref = (): CalendarRef => ({ organizationId: ORG, connectionId: 'conn_dav', calendarUrl: dav.calendarUrl });
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
    const response = await fetch(`${dav.calendarUrl}${uid}.ics`, {
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
    let port: number;
    [dav, database, port] = await Promise.all([startXandikos(), createTestDatabase(), freePort()]);
    closedUrl = `http://127.0.0.1:${port}/`;
    garbage = createServer((_req, res) => {
      res.writeHead(207, { 'content-type': 'application/xml' });
      res.end('<<<not xml at all & {"json": maybe}');
    });
    await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
    garbageUrl = `http://127.0.0.1:${(garbage.address() as AddressInfo).port}/`;
    await migrateLatest(database.db);
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
    grace = {
      key: dav.calendarUrl,
      person: { name: 'Grace Hopper', email: 'grace@acme.example' },
      zone: 'UTC',
      hours: weekdays,
      calendar: await available.wrap({ ...ref(), email: 'Grace@Acme.example' }, live),
    };
  });
  after(async () => {
    await Promise.all([dav?.stop(), database?.drop(), new Promise((r) => (garbage ? garbage.close(r) : r(undefined)))]);
  });

  it('an event written straight into the server reaches the cache at the next sync and removes its slots; the cache keeps no title or attendee', async () => {
    assert.deepEqual((await calendars.byEmail(ORG, 'grace@acme.example')).length, 1, 'scheduling enrolled the calendar');
    const first = await syncGrace();
    assert.equal(first.status, 'succeeded', JSON.stringify(first));
    assert.deepEqual(hours(await offeredSlots([grace], query)), ALL_DAY);

    await put('dentist', at('10:00'), at('11:30'));
    // Until the next sync the fresh cache answers: the new event is not seen yet (the live read would see it).
    assert.deepEqual(hours(await offeredSlots([grace], query)), ALL_DAY);
    assert.ok((await grace.calendar.liveBusy!(window)).some((b) => b.uid === 'dentist'));

    const second = await syncGrace();
    assert.equal(second.status, 'succeeded', JSON.stringify(second));
    assert.deepEqual(hours(await offeredSlots([grace], query)), ['09:00', '12:00', '13:00', '14:00', '15:00', '16:00']);
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

  it('a deleted event frees its slots after the next (incremental) sync', async () => {
    const response = await fetch(`${dav.calendarUrl}dentist.ics`, { method: 'DELETE' });
    assert.ok(response.status === 204 || response.status === 200, `DELETE ${response.status}`);
    assert.equal((await syncGrace()).status, 'succeeded');
    assert.deepEqual(hours(await offeredSlots([grace], query)), ALL_DAY);
    assert.equal((await database.db('hi_availability_busy').where({ organization_id: ORG })).length, 0);
    const last = (await runs('calendar_sync')).at(-1);
    assert.equal((typeof last.result === 'string' ? JSON.parse(last.result) : last.result).removed, 1);
  });

  it('a sync token the server refuses ends in a full read, and the cache is right again', async () => {
    await put('standup', at('14:00'), at('15:00'));
    const bogus = Buffer.from(JSON.stringify({ syncToken: 'http://xandikos.invalid/sync/nonsense' })).toString('base64url');
    await database.db('hi_availability_calendars').where({ organization_id: ORG }).update({ sync_state: bogus });
    assert.equal((await syncGrace()).status, 'succeeded');
    const last = (await runs('calendar_sync')).at(-1);
    assert.equal((typeof last.result === 'string' ? JSON.parse(last.result) : last.result).full, true);
    assert.deepEqual(hours(await offeredSlots([grace], query)), ['09:00', '10:00', '11:00', '12:00', '13:00', '15:00', '16:00']);
    await fetch(`${dav.calendarUrl}standup.ics`, { method: 'DELETE' });
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
    assert.deepEqual(hours(await offeredSlots([grace], query)), ['09:00', '10:00', '11:00', '12:00', '15:00', '16:00']);
    const uid = timeOffUid(ORG, 'pto_1');
    const url = `${dav.calendarUrl}${encodeURIComponent(uid)}.ics`;
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
    assert.deepEqual(hours(await offeredSlots([grace], query)), []);
    ics = await (await fetch(url)).text();
    assert.match(ics, /SEQUENCE:1/);
    assert.match(ics, /DTSTART:\d{8}T230000Z/);

    const cancelled = await new TimeOffCancelledHandler(timeOff).handle(ORG, { time_off_id: 'pto_1' });
    assert.equal(cancelled.status, 'cancelled');
    assert.equal((await fetch(url)).status, 404);
    assert.deepEqual(hours(await offeredSlots([grace], query)), ALL_DAY);
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
    // Grace's cache, synced an hour ago, no longer answers: a slot query reads the server live.
    await database
      .db('hi_availability_calendars')
      .where({ organization_id: ORG, connection_id: 'conn_dav' })
      .update({ synced_at: new Date(Date.now() - 3600_000) });
    await put('late', at('09:00'), at('10:00'));
    assert.deepEqual(hours(await offeredSlots([grace], query)), ALL_DAY.slice(1));
  });

  it('the repeating job syncs what is due for licensed organizations only; an unchanged calendar is an empty incremental sync', async () => {
    const stranger = await calendars.enroll(
      { organizationId: 'org_unlicensed', connectionId: 'conn_dav', calendarUrl: dav.calendarUrl },
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
    const grace = (await calendars.find(ref()))!;
    assert.deepEqual(outcomes.map((o) => `${o.calendarId === grace.id ? 'grace' : 'other'} ${o.status}`).sort(), [
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
    assert.equal(again.find((o) => o.calendarId === grace.id)?.status, 'succeeded');
    const last = await database
      .db('hi_action_runs')
      .where({ id: again.find((o) => o.calendarId === grace.id)!.runId })
      .first();
    assert.deepEqual(typeof last.result === 'string' ? JSON.parse(last.result) : last.result, { full: false, changed: 0, removed: 0 });
  });
});
