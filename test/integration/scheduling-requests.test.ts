/**
 * Interview self-scheduling end to end, against Debian's xandikos (two interviewers' CalDAV
 * calendars, as connections), a real SMTP server (every email parsed back with mailparser,
 * every .ics with node-ical) and PostgreSQL: the request sends the candidate a signed link in
 * their language; the page offers only times both interviewers are free; two candidates
 * racing for one time (or, on different requests, for overlapping times) end with one booking
 * (the other is shown the rest); booking writes the
 * event into both calendars as action runs, sends an iTIP REQUEST and publishes
 * interview.scheduled; a move keeps the UID with SEQUENCE + 1; a cancel sends CANCEL and
 * removes the events; tampered links and other organizations' ids are refused.
 */
import { strict as assert } from 'node:assert';
import ical, { type VEvent } from 'node-ical';
import { caldavConnector } from '../../src/connectors/caldav';
import { CaldavCalendarConnector } from '../../src/connectors/caldav/caldav-calendar';
import { activateLicense } from '../helpers/hooks';
import { eventsOf } from '../helpers/licensing';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { startXandikos, type Xandikos } from '../helpers/xandikos';

const ACTION = 'scheduling.interview_scheduling';
const DAY = 24 * 3600_000;

/** A Tuesday at least four days ahead (the page's minimum notice is 12 hours), as YYYY-MM-DD. */
function nextTuesday(): string {
  let day = new Date(Date.now() + 4 * DAY);
  while (day.getUTCDay() !== 2) day = new Date(day.getTime() + DAY);
  return day.toISOString().slice(0, 10);
}

describe('scheduling: candidate self-scheduling against xandikos, SMTP and PostgreSQL', function () {
  this.timeout(20_000);
  let t: TestHost;
  let smtp: TestSmtpServer;
  let dav: Xandikos;
  let acme: { organizationId: string; apiKey: string };
  let globex: { organizationId: string; apiKey: string };
  let graceCalendar: CaldavCalendarConnector;
  let alanCalendar: CaldavCalendarConnector;
  const connections: string[] = [];
  // One CalDAV connection (the team's account); Alan's calendar is another calendar of it.
  const day = nextTuesday();
  const at = (time: string) => `${day}T${time}:00.000Z`;
  let adaLink: string;
  let requestId: string;

  const requestBody = (candidate: { name: string; email: string }, extra: Record<string, unknown> = {}) => ({
    // One application per candidate: an open request for the same application and window is found again.
    application_id: `app_${candidate.email.split('@')[0]}`,
    title: 'Interview: Data Engineer',
    candidate: { ...candidate, language: 'de-DE', timezone: 'Europe/Berlin' },
    interviewers: [
      // Zones without DST: the expected UTC slots hold on any date the suite runs.
      { name: 'Grace Hopper', email: 'grace@acme.example', calendar_connection_id: connections[0], timezone: 'Atlantic/Reykjavik' },
      {
        name: 'Alan Turing',
        email: 'alan@acme.example',
        calendar_connection_id: connections[0],
        calendar_url: `${dav.url}user/calendars/alan/`,
        timezone: 'UTC',
        working_hours: { tue: [['09:00', '16:00']] },
      },
    ],
    duration_minutes: 60,
    window: { start: `${day}T00:00:00Z`, end: `${day}T23:59:00Z` },
    ...extra,
  });
  const linkIn = (text: string) => /http:\/\/127\.0\.0\.1:\d+\/v1\/schedule\?token=[A-Za-z0-9_.-]+/.exec(text)?.[0];
  const path = (url: string) => url.replace(t.baseUrl, '');
  const page = (url: string) => t.request('GET', path(url));
  const post = (url: string, form: Record<string, string>) =>
    t.request('POST', path(url), { rawBody: new URLSearchParams(form).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  const offered = (html: string) => [...html.matchAll(/name="start" value="([^"]+)"/g)].map((m) => m[1]);
  const itip = (index: number) => {
    const mail = smtp.received[index]!.parsed;
    const part = mail.attachments.find((a) => a.contentType === 'text/calendar');
    assert.ok(part, `a text/calendar part in "${mail.subject}"`);
    const text = part.content.toString('utf8');
    const event = Object.values(ical.sync.parseICS(text)).find((c) => c?.type === 'VEVENT') as VEvent;
    return {
      to: mail.to,
      method: /^METHOD:(\w+)/m.exec(text)?.[1],
      uid: event.uid,
      sequence: Number(event.sequence),
      start: new Date(event.start).toISOString(),
    };
  };
  const busyUids = async (calendar: CaldavCalendarConnector) =>
    (await calendar.busy({ start: new Date(`${day}T00:00:00Z`), end: new Date(`${day}T23:59:00Z`) })).map((b) => `${b.uid}@${b.start.toISOString()}`).sort();

  before(async function () {
    // Starting the host (PGlite migrations without DATABASE_URL) and xandikos.
    this.timeout(90_000);
    [smtp, dav] = await Promise.all([startSmtpServer(), startXandikos()]);
    t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
    acme = await t.createOrganization('Acme');
    globex = await t.createOrganization('Globex');
    const made = await fetch(`${dav.url}user/calendars/alan/`, { method: 'MKCALENDAR' });
    assert.equal(made.status, 201, await made.text());
    await activateLicense(t, acme.apiKey, ACTION);
    const connect = async (connector: string, settings: Record<string, unknown>) => {
      const created = await t.request('POST', '/v1/integrations/connections', { auth: acme.apiKey, body: { connector, settings, credentials: {} } });
      assert.equal(created.status, 201, created.text);
      const tested = await t.request('POST', `/v1/integrations/connections/${created.body.id}/test`, { auth: acme.apiKey });
      assert.equal(tested.body.ok, true, tested.text);
      return created.body.id as string;
    };
    await connect('smtp', { host: 'localhost', port: smtp.port, security: 'starttls', from_email: 'jobs@acme.example', tls_ca: smtp.certificate });
    connections.push(await connect('caldav', { server_url: dav.url, calendar_url: dav.calendarUrl }));
    graceCalendar = new CaldavCalendarConnector(caldavConnector.settings.parse({ server_url: dav.url, calendar_url: dav.calendarUrl }), {});
    alanCalendar = new CaldavCalendarConnector(caldavConnector.settings.parse({ server_url: dav.url, calendar_url: `${dav.url}user/calendars/alan/` }), {});
    // Grace is busy 10:00–11:00 UTC.
    await graceCalendar.putEvent({
      uid: 'standup@acme.example',
      sequence: 0,
      summary: 'Team stand-up',
      start: new Date(at('10:00')),
      end: new Date(at('11:00')),
      organizer: { name: 'Grace Hopper', email: 'grace@acme.example' },
      attendees: [],
    });
  });
  after(async () => {
    await t?.close();
    await Promise.all([smtp?.close(), dav?.stop()]);
  });

  it('a request sends the candidate a signed link in their language; the host reads the request back', async () => {
    const created = await t.request('POST', '/v1/scheduling/requests', {
      auth: acme.apiKey,
      body: requestBody({ name: 'Ada Lovelace', email: 'ada@example.com' }),
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.status, 'open');
    assert.ok(created.body.email_run_id);
    requestId = created.body.id;
    assert.equal(smtp.received.length, 1);
    const mail = smtp.received[0]!.parsed;
    assert.equal(mail.subject, 'Wählen Sie einen Termin für Ihr Gespräch: Interview: Data Engineer');
    assert.match(mail.text ?? '', /Acme lädt Sie zu „Interview: Data Engineer“ ein \(60 Minuten\)/);
    adaLink = linkIn(mail.text ?? '')!;
    assert.equal(adaLink, created.body.url);
    const read = await t.request('GET', `/v1/scheduling/requests/${requestId}`, { auth: acme.apiKey });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.booked, null);
  });

  it('the page offers only the times both interviewers are free, in the candidate’s language', async () => {
    const shown = await page(adaLink);
    assert.equal(shown.status, 200, shown.text);
    assert.match(shown.text, /<html lang="de-DE" dir="ltr">/);
    assert.match(shown.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    // Alan works 09:00–16:00 UTC, Grace 09:00–17:00 but busy 10:00–11:00: one-hour slots on the half hour.
    assert.deepEqual(offered(shown.text), ['09:00', '11:00', '11:30', '12:00', '12:30', '13:00', '13:30', '14:00', '14:30', '15:00'].map(at));
  });

  it('two candidates racing for one time: one books it, the other is shown the times left', async () => {
    const other = await t.request('POST', '/v1/scheduling/requests', { auth: acme.apiKey, body: requestBody({ name: 'Bob Byte', email: 'bob@example.com' }) });
    assert.equal(other.status, 201, other.text);
    const bobLink = linkIn(smtp.received[1]!.parsed.text ?? '')!;
    const [ada, bob] = await Promise.all([post(adaLink, { action: 'book', start: at('11:00') }), post(bobLink, { action: 'book', start: at('11:00') })]);
    const statuses = [ada.status, bob.status].sort();
    assert.deepEqual(statuses, [200, 409], `${ada.text}\n${bob.text}`);
    const [winner, loser] = ada.status === 200 ? [ada, bob] : [bob, ada];
    assert.ok(['slot_taken', 'slot_unavailable'].includes(loser.headers.get('x-error-code') ?? ''), loser.text);
    assert.ok(!offered(loser.text).includes(at('11:00')));
    assert.ok(offered(loser.text).includes(at('13:00')));
    assert.match(winner.text, /Ihr Gespräch ist gebucht/);
    // Only Ada's booking is kept for the rest of the file: cancel whichever won if it was Bob.
    if (winner === bob) {
      assert.equal((await post(bobLink, { action: 'cancel' })).status, 200);
      assert.equal((await post(adaLink, { action: 'book', start: at('11:00') })).status, 200);
    }
  });

  it('the booking is in both calendars (action runs), the candidate got an iTIP REQUEST, interview.scheduled was published', async () => {
    const uid = (await t.database.db('hi_scheduling_bookings').where({ request_id: requestId, status: 'booked' }).first()).event_uid as string;
    assert.deepEqual(await busyUids(alanCalendar), [`${uid}@${at('11:00')}`]);
    assert.ok((await busyUids(graceCalendar)).includes(`${uid}@${at('11:00')}`));
    const invite = smtp.received.map((_, i) => i).filter((i) => smtp.received[i]!.parsed.attachments.length > 0 && itip(i).uid === uid);
    const first = itip(invite[invite.length - 1]!);
    assert.deepEqual({ method: first.method, start: first.start }, { method: 'REQUEST', start: at('11:00') });
    const runs = await t.request('GET', `/v1/integrations/runs?action=${ACTION}`, { auth: acme.apiKey });
    assert.equal(runs.status, 200, runs.text);
    const calendarRuns = runs.body.data.filter((r: any) => r.step === 'calendar' && r.status === 'succeeded');
    assert.ok(calendarRuns.length >= 2, runs.text);
    const scheduled = eventsOf(t, acme.organizationId, 'interview.scheduled').filter((e) => e.payload.interview_id === requestId);
    assert.equal(scheduled.length, 1);
    assert.equal(scheduled[0]!.payload.starts_at, at('11:00'));
    const read = await t.request('GET', `/v1/scheduling/requests/${requestId}`, { auth: acme.apiKey });
    assert.deepEqual({ status: read.body.status, start: read.body.booked.start }, { status: 'booked', start: at('11:00') });
  });

  it('moving the interview keeps its UID with SEQUENCE + 1; cancelling sends CANCEL and removes the events', async () => {
    const uid = (await t.database.db('hi_scheduling_bookings').where({ request_id: requestId, status: 'booked' }).first()).event_uid as string;
    const sent = smtp.received.length;
    const moved = await post(adaLink, { action: 'book', start: at('13:00') });
    assert.equal(moved.status, 200, moved.text);
    const update = itip(sent);
    assert.deepEqual({ method: update.method, uid: update.uid, start: update.start }, { method: 'REQUEST', uid, start: at('13:00') });
    assert.ok(update.sequence >= 1);
    assert.deepEqual(await busyUids(alanCalendar), [`${uid}@${at('13:00')}`]);
    assert.equal(eventsOf(t, acme.organizationId, 'interview.rescheduled').filter((e) => e.payload.interview_id === requestId).length, 1);
    const cancelled = await post(adaLink, { action: 'cancel' });
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.match(cancelled.text, /Ihr Gespräch ist abgesagt/);
    const cancel = itip(sent + 1);
    assert.deepEqual({ method: cancel.method, uid: cancel.uid }, { method: 'CANCEL', uid });
    assert.ok(cancel.sequence > update.sequence);
    assert.deepEqual(await busyUids(alanCalendar), []);
    assert.ok(!(await busyUids(graceCalendar)).some((b) => b.startsWith(uid)));
    const canceled = eventsOf(t, acme.organizationId, 'interview.canceled').filter((e) => e.payload.interview_id === requestId);
    assert.deepEqual(
      canceled.map((e) => e.payload.cancelled_by),
      ['candidate'],
    );
    const read = await t.request('GET', `/v1/scheduling/requests/${requestId}`, { auth: acme.apiKey });
    assert.deepEqual([read.body.status, read.body.cancelled_by, read.body.cancellation_reason], ['cancelled', 'candidate', null]);
  });

  it('the host withdraws a booked request: events leave both calendars, the candidate gets a CANCEL, the link says withdrawn; again changes nothing', async () => {
    const created = await t.request('POST', '/v1/scheduling/requests', {
      auth: acme.apiKey,
      body: requestBody({ name: 'Fay Fenn', email: 'fay@example.com' }),
    });
    assert.equal(created.status, 201, created.text);
    const fayLink = created.body.url as string;
    const booked = await post(fayLink, { action: 'book', start: at('14:00') });
    assert.equal(booked.status, 200, booked.text);
    const uid = (await t.database.db('hi_scheduling_bookings').where({ request_id: created.body.id, status: 'booked' }).first()).event_uid as string;
    assert.deepEqual(await busyUids(alanCalendar), [`${uid}@${at('14:00')}`]);
    const request = smtp.received.length - 1;
    assert.equal(itip(request).method, 'REQUEST');
    const cancel = () => t.request('POST', `/v1/scheduling/requests/${created.body.id}/cancel`, { auth: acme.apiKey, body: { reason: 'Position filled' } });
    const withdrawn = await cancel();
    assert.equal(withdrawn.status, 200, withdrawn.text);
    assert.deepEqual(
      [withdrawn.body.status, withdrawn.body.cancelled_by, withdrawn.body.cancellation_reason, withdrawn.body.booked],
      ['cancelled', 'host', 'Position filled', null],
    );
    assert.ok(withdrawn.body.cancelled_at);
    assert.deepEqual(await busyUids(alanCalendar), []);
    assert.ok(!(await busyUids(graceCalendar)).some((b) => b.startsWith(uid)));
    assert.equal(smtp.received.length, request + 2);
    const itipCancel = itip(request + 1);
    assert.deepEqual({ method: itipCancel.method, uid: itipCancel.uid }, { method: 'CANCEL', uid });
    assert.match(JSON.stringify(itipCancel.to), /fay@example\.com/);
    assert.ok(itipCancel.sequence > itip(request).sequence);
    // The reason is the host's: it is not in what the candidate reads.
    const mail = smtp.received[request + 1]!.parsed;
    assert.doesNotMatch([mail.subject, mail.text, mail.html, ...mail.attachments.map((a) => a.content.toString('utf8'))].join('\n'), /Position filled/);
    const canceled = eventsOf(t, acme.organizationId, 'interview.canceled').filter((e) => e.payload.interview_id === created.body.id);
    assert.deepEqual(
      canceled.map((e) => e.payload),
      [{ interview_id: created.body.id, cancelled_by: 'host', reason: 'Position filled' }],
    );
    const shown = await page(fayLink);
    assert.equal(shown.status, 200, shown.text);
    assert.match(shown.text, /Acme hat diese Gesprächsanfrage zurückgezogen/);
    assert.deepEqual(offered(shown.text), []);
    const rebook = await post(fayLink, { action: 'book', start: at('14:00') });
    assert.equal(rebook.status, 409);
    assert.equal(rebook.headers.get('x-error-code'), 'scheduling_cancelled');
    // Idempotent: the same answer, no second CANCEL or event; the candidate's cancel leaves it withdrawn.
    const again = await cancel();
    assert.deepEqual([again.status, again.body.cancelled_by, again.body.cancelled_at], [200, 'host', withdrawn.body.cancelled_at]);
    assert.equal((await post(fayLink, { action: 'cancel' })).status, 200);
    assert.equal(smtp.received.length, request + 2);
    assert.equal(eventsOf(t, acme.organizationId, 'interview.canceled').filter((e) => e.payload.interview_id === created.body.id).length, 1);
    assert.match((await page(fayLink)).text, /zurückgezogen/);
  });

  it('the host withdraws an open request: it closes with no email or event; other organizations’ and unknown ids are 404, a long reason 400', async () => {
    const created = await t.request('POST', '/v1/scheduling/requests', {
      auth: acme.apiKey,
      body: requestBody({ name: 'Gil Gray', email: 'gil@example.com' }),
    });
    assert.equal(created.status, 201, created.text);
    const path = `/v1/scheduling/requests/${created.body.id}/cancel`;
    assert.equal((await t.request('POST', path, { auth: globex.apiKey, body: {} })).status, 404);
    assert.equal((await t.request('POST', '/v1/scheduling/requests/sreq_nope/cancel', { auth: acme.apiKey, body: {} })).status, 404);
    const long = await t.request('POST', path, { auth: acme.apiKey, body: { reason: 'x'.repeat(501) } });
    assert.equal(long.status, 400, long.text);
    const sent = smtp.received.length;
    const withdrawn = await t.request('POST', path, { auth: acme.apiKey, body: {} });
    assert.equal(withdrawn.status, 200, withdrawn.text);
    assert.deepEqual([withdrawn.body.status, withdrawn.body.cancelled_by, withdrawn.body.cancellation_reason], ['cancelled', 'host', null]);
    assert.equal(smtp.received.length, sent);
    assert.equal(eventsOf(t, acme.organizationId, 'interview.canceled').filter((e) => e.payload.interview_id === created.body.id).length, 0);
    const shown = await page(created.body.url);
    assert.match(shown.text, /Acme hat diese Gesprächsanfrage zurückgezogen/);
    assert.deepEqual(offered(shown.text), []);
    // A new request for the same application and window is a new one (the withdrawn one is not open).
    const renewed = await t.request('POST', '/v1/scheduling/requests', {
      auth: acme.apiKey,
      body: requestBody({ name: 'Gil Gray', email: 'gil@example.com' }),
    });
    assert.notEqual(renewed.body.id, created.body.id);
  });

  it('the host withdrawing while the candidate books: whichever comes first, the request ends cancelled with no booking and no event left', async () => {
    const created = await t.request('POST', '/v1/scheduling/requests', {
      auth: acme.apiKey,
      body: requestBody({ name: 'Ivy Ives', email: 'ivy@example.com' }),
    });
    assert.equal(created.status, 201, created.text);
    const [booked, withdrawn] = await Promise.all([
      post(created.body.url, { action: 'book', start: at('15:00') }),
      t.request('POST', `/v1/scheduling/requests/${created.body.id}/cancel`, { auth: acme.apiKey, body: {} }),
    ]);
    assert.equal(withdrawn.status, 200, withdrawn.text);
    assert.ok([200, 409].includes(booked.status), booked.text);
    const read = await t.request('GET', `/v1/scheduling/requests/${created.body.id}`, { auth: acme.apiKey });
    assert.deepEqual([read.body.status, read.body.cancelled_by, read.body.booked], ['cancelled', 'host', null]);
    assert.equal((await t.database.db('hi_scheduling_bookings').where({ request_id: created.body.id, status: 'booked' })).length, 0);
    assert.ok(!(await busyUids(alanCalendar)).some((u) => u.endsWith(`@${at('15:00')}`)));
    assert.ok(!(await busyUids(graceCalendar)).some((u) => u.endsWith(`@${at('15:00')}`)));
  });

  it('one link booking two different times at once, five rounds: one booking, one event per calendar, one invitation', async () => {
    const requests = await Promise.all(
      [0, 1, 2, 3, 4].map((n) =>
        t.request('POST', '/v1/scheduling/requests', { auth: acme.apiKey, body: requestBody({ name: `Kim Race ${n}`, email: `kim-race-${n}@example.com` }) }),
      ),
    );
    const times = [at('12:00'), at('14:00')];
    for (const [round, created] of requests.entries()) {
      assert.equal(created.status, 201, created.text);
      const answers = await Promise.all(times.map((start) => post(created.body.url, { action: 'book', start })));
      const context = `round ${round}: ${answers.map((a) => `${a.status} ${a.headers.get('x-error-code') ?? ''}`).join(', ')}`;
      const rows = await t.database.db('hi_scheduling_bookings').where({ request_id: created.body.id });
      // One booking (a row per interviewer calendar), live; the loser left no claim.
      assert.deepEqual([rows.length, new Set(rows.map((b: any) => b.id)).size, rows.every((b: any) => b.status === 'booked')], [2, 1, true], context);
      const uid = rows[0].event_uid as string;
      const start = new Date(rows[0].starts_at).toISOString();
      // One set of calendar events: nothing of the loser's at either time.
      const atTimes = (uids: string[]) => uids.filter((u) => u.startsWith('itv-') && times.some((time) => u.endsWith(`@${time}`)));
      assert.deepEqual(atTimes(await busyUids(alanCalendar)), [`${uid}@${start}`], context);
      assert.deepEqual(atTimes(await busyUids(graceCalendar)), [`${uid}@${start}`], context);
      const invites = smtp.received
        .map((mail, i) => ({ mail, i }))
        .filter(({ mail }) => JSON.stringify(mail.parsed.to).includes(`kim-race-${round}@`) && mail.parsed.attachments.length > 0)
        .map(({ i }) => itip(i));
      assert.ok(
        invites.every((i) => i.uid === uid && i.method === 'REQUEST'),
        context,
      );
      const refused = answers.filter((a) => a.status !== 200);
      if (refused.length === 1) {
        // Truly at once: the second is refused (the database holds one live booking per request).
        assert.equal(refused[0]!.status, 409, context);
        assert.equal(refused[0]!.headers.get('x-error-code'), 'booking_in_progress', context);
        assert.equal(invites.length, 1, context);
      } else {
        // The second came after the first had finished: a move, as when the candidate picks again later.
        assert.equal(refused.length, 0, context);
        assert.deepEqual(
          invites.map((i) => i.sequence),
          [0, 1],
          context,
        );
      }
      assert.equal(eventsOf(t, acme.organizationId, 'interview.scheduled').filter((e) => e.payload.interview_id === created.body.id).length, 1, context);
      // Both times free again for the next round (its writes do not overlap this cancel's in the calendars).
      assert.equal((await post(created.body.url, { action: 'cancel' })).status, 200, context);
    }
  });

  it('a booking left unfinished (its process stopped before the calendars): refused as in progress at first, moved and finished after five minutes', async () => {
    const created = await t.request('POST', '/v1/scheduling/requests', {
      auth: acme.apiKey,
      body: requestBody({ name: 'Lee Stop', email: 'lee-stop@example.com' }),
    });
    assert.equal(created.status, 201, created.text);
    // What a stopped process leaves: the claim, no event, the request still open.
    const claimedAt = new Date();
    await t.database.db('hi_scheduling_bookings').insert(
      [connections[0], `${connections[0]} ${dav.url}user/calendars/alan/`].map((calendar_key) => ({
        id: 'bkg_stopped',
        organization_id: acme.organizationId,
        request_id: created.body.id,
        calendar_key,
        event_uid: 'itv-bkg_stopped@hiring-integrations',
        sequence: 0,
        starts_at: at('12:00'),
        ends_at: at('13:00'),
        candidate_name: 'Lee Stop',
        candidate_email: 'lee-stop@example.com',
        status: 'booked',
        created_at: claimedAt,
        updated_at: claimedAt,
      })),
    );
    const early = await post(created.body.url, { action: 'book', start: at('14:00') });
    assert.equal(early.status, 409, early.text);
    assert.equal(early.headers.get('x-error-code'), 'booking_in_progress');
    await t.database
      .db('hi_scheduling_bookings')
      .where({ id: 'bkg_stopped' })
      .update({ updated_at: new Date(claimedAt.getTime() - 6 * 60_000) });
    const later = await post(created.body.url, { action: 'book', start: at('14:00') });
    assert.equal(later.status, 200, later.text);
    const read = await t.request('GET', `/v1/scheduling/requests/${created.body.id}`, { auth: acme.apiKey });
    assert.deepEqual([read.body.status, read.body.booked.start], ['booked', at('14:00')]);
    assert.ok((await busyUids(alanCalendar)).includes(`itv-bkg_stopped@hiring-integrations@${at('14:00')}`));
    assert.equal(eventsOf(t, acme.organizationId, 'interview.scheduled').filter((e) => e.payload.interview_id === created.body.id).length, 1);
    assert.equal((await post(created.body.url, { action: 'cancel' })).status, 200);
  });

  it('two candidates on different requests pick overlapping times at once (one interviewer shared), four rounds: one booking each round', async () => {
    // 11:00–12:00 against 11:30–12:30: different starts, so only the overlap check can refuse one.
    const pairs = [
      [at('11:00'), at('11:30')],
      [at('11:30'), at('11:00')],
      [at('13:30'), at('14:00')],
      [at('14:00'), at('13:30')],
    ];
    const who = (round: number, n: number) => ({ name: `Olly Overlap ${round}${n}`, email: `olly-overlap-${round}-${n}@example.com` });
    const mailsTo = (email: string) => smtp.received.filter((mail) => JSON.stringify(mail.parsed.to).includes(email)).length;
    for (const [round, times] of pairs.entries()) {
      const requests = await Promise.all(
        [0, 1].map((n) => t.request('POST', '/v1/scheduling/requests', { auth: acme.apiKey, body: requestBody(who(round, n)) })),
      );
      for (const created of requests) assert.equal(created.status, 201, created.text);
      const answers = await Promise.all(requests.map((created, n) => post(created.body.url, { action: 'book', start: times[n]! })));
      const context = `round ${round}: ${answers.map((a) => `${a.status} ${a.headers.get('x-error-code') ?? ''}`).join(', ')}`;
      assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409], context);
      const w = answers.findIndex((a) => a.status === 200);
      const [winner, loser] = [requests[w]!.body, requests[1 - w]!.body];
      const refused = answers[1 - w]!;
      // What a taken time answers: the page again, with the times left (none overlapping the winner's).
      assert.ok(['slot_taken', 'slot_unavailable'].includes(refused.headers.get('x-error-code') ?? ''), context);
      const left = offered(refused.text);
      assert.ok(!times.some((time) => left.includes(time)), context);
      assert.ok(left.includes(at('09:00')), context);
      // One booking (a row per interviewer calendar); the loser left no claim, no event, no email, no event published.
      const rows = await t.database.db('hi_scheduling_bookings').whereIn('request_id', [winner.id, loser.id]);
      assert.deepEqual([rows.length, new Set(rows.map((b: any) => b.request_id))], [2, new Set([winner.id])], context);
      const uid = rows[0].event_uid as string;
      const start = new Date(rows[0].starts_at).toISOString();
      const atTimes = (uids: string[]) => uids.filter((u) => u.startsWith('itv-') && times.some((time) => u.endsWith(`@${time}`)));
      assert.deepEqual(atTimes(await busyUids(alanCalendar)), [`${uid}@${start}`], context);
      assert.deepEqual(atTimes(await busyUids(graceCalendar)), [`${uid}@${start}`], context);
      assert.equal(mailsTo(who(round, 1 - w).email), 1, context); // the link only
      assert.equal(eventsOf(t, acme.organizationId, 'interview.scheduled').filter((e) => e.payload.interview_id === loser.id).length, 0, context);
      assert.equal(eventsOf(t, acme.organizationId, 'interview.scheduled').filter((e) => e.payload.interview_id === winner.id).length, 1, context);
      // Both times free again for the next round.
      assert.equal((await post(winner.url, { action: 'cancel' })).status, 200, context);
    }
  });

  it('refuses tampered links, forged times, unknown connections and other organizations’ requests', async () => {
    const tampered = await page(`${adaLink.slice(0, -3)}AAA`);
    assert.equal(tampered.status, 400);
    assert.equal(tampered.headers.get('x-error-code'), 'scheduling_link_invalid');
    const other = await t.request('POST', '/v1/scheduling/requests', { auth: acme.apiKey, body: requestBody({ name: 'Cy', email: 'cy@example.com' }) });
    const cyLink = linkIn(smtp.received[smtp.received.length - 1]!.parsed.text ?? '')!;
    assert.equal(other.status, 201);
    const forged = await post(cyLink, { action: 'book', start: at('03:00') });
    assert.equal(forged.status, 400);
    assert.equal(forged.headers.get('x-error-code'), 'slot_not_offered');
    const missing = await post(cyLink, { action: 'book' });
    assert.equal(missing.headers.get('x-error-code'), 'slot_required');
    const unknown = await t.request('POST', '/v1/scheduling/requests', {
      auth: acme.apiKey,
      body: {
        ...requestBody({ name: 'Cy', email: 'cy@example.com' }),
        interviewers: [{ name: 'X', email: 'x@acme.example', calendar_connection_id: 'conn_nope', timezone: 'UTC' }],
      },
    });
    assert.equal(unknown.status, 404, unknown.text);
    assert.equal(unknown.body.error.code, 'connection_not_found');
    assert.equal((await t.request('GET', `/v1/scheduling/requests/${requestId}`, { auth: globex.apiKey })).status, 404);
    const unlicensed = await t.request('POST', '/v1/scheduling/requests', { auth: globex.apiKey, body: requestBody({ name: 'Cy', email: 'cy@example.com' }) });
    assert.equal(unlicensed.status, 403, unlicensed.text);
  });

  it('a create whose mail server is down answers 503 and leaves nothing; its retry makes one request, a third call finds it', async () => {
    const body = requestBody({ name: 'Dee', email: 'dee@example.com' });
    const rows = () => t.database.db('hi_scheduling_requests').where({ organization_id: acme.organizationId, application_id: 'app_dee' });
    smtp.failNext(100, 421, 'Service not available');
    const down = await t.request('POST', '/v1/scheduling/requests', { auth: acme.apiKey, body, headers: { 'idempotency-key': 'dee-1' } });
    smtp.failNext(0, 421);
    assert.equal(down.status, 503, down.text);
    assert.equal((await rows()).length, 0);
    const sent = smtp.received.length;
    const retried = await t.request('POST', '/v1/scheduling/requests', { auth: acme.apiKey, body, headers: { 'idempotency-key': 'dee-1' } });
    assert.equal(retried.status, 201, retried.text);
    const again = await t.request('POST', '/v1/scheduling/requests', { auth: acme.apiKey, body, headers: { 'idempotency-key': 'dee-2' } });
    assert.equal(again.body.id, retried.body.id);
    assert.equal((await rows()).length, 1);
    assert.equal(smtp.received.length, sent + 1);
  });

  it('with availability sync: a request follows both calendars; time off from the hook is written into Grace’s calendar and leaves the page, its cancel frees it', async () => {
    await activateLicense(t, acme.apiKey, 'scheduling.availability_sync');
    const created = await t.request('POST', '/v1/scheduling/requests', { auth: acme.apiKey, body: requestBody({ name: 'Eve', email: 'eve@example.com' }) });
    assert.equal(created.status, 201, created.text);
    const followed = await t.database.db('hi_availability_calendars').where({ organization_id: acme.organizationId }).orderBy('email');
    assert.deepEqual(
      followed.map((r: { email: string }) => r.email),
      ['alan@acme.example', 'grace@acme.example'],
    );
    const listed = await t.request('GET', '/v1/availability/calendars', { auth: acme.apiKey });
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(
      listed.body.data
        .map((c: { email: string; calendar_url: string | null; fresh: boolean; synced_at: string | null }) => [c.email, c.calendar_url, c.fresh, c.synced_at])
        .sort(),
      [
        ['alan@acme.example', `${dav.url}user/calendars/alan/`, false, null],
        ['grace@acme.example', null, false, null],
      ],
    );
    assert.deepEqual((await t.request('GET', '/v1/availability/calendars', { auth: globex.apiKey })).body.data, []);
    const before = offered((await page(created.body.url)).text);
    const fire = (hook: string, payload: object) =>
      t.request('POST', `/host/v1/hooks/${hook}`, { auth: t.operatorKey, body: { organization_id: acme.organizationId, payload } });
    const off = await fire('time_off.created', {
      time_off_id: 'pto_grace',
      person: { email: 'Grace@acme.example' },
      starts_at: at('13:00'),
      ends_at: at('15:00'),
      timezone: 'Atlantic/Reykjavik',
      reason: 'doctor',
    });
    assert.equal(off.status, 200, off.text);
    assert.deepEqual(off.body.handled, ['time-off-created']);
    assert.equal(off.body.outcomes[0].result.calendars[0].status, 'succeeded', off.text);
    assert.ok((await busyUids(graceCalendar)).some((u) => u.startsWith('toff-') && u.endsWith(`@${at('13:00')}`)));
    const blocked = ['12:30', '13:00', '13:30', '14:00', '14:30'].map(at);
    assert.ok(
      blocked.some((b) => before.includes(b)),
      'the time off overlaps times that were offered',
    );
    assert.deepEqual(
      offered((await page(created.body.url)).text),
      before.filter((b) => !blocked.includes(b!)),
    );
    const cancelled = await fire('time_off.cancelled', { time_off_id: 'pto_grace' });
    assert.equal(cancelled.body.outcomes[0].result.status, 'cancelled', cancelled.text);
    assert.ok(!(await busyUids(graceCalendar)).some((u) => u.startsWith('toff-')));
    assert.deepEqual(offered((await page(created.body.url)).text), before);
  });

  it('sync now reads a calendar’s changes into the cache at once; a stopped calendar is not synced and blocks no slot until resumed', async () => {
    const created = await t.request('POST', '/v1/scheduling/requests', {
      auth: acme.apiKey,
      body: requestBody({ name: 'Hal Hart', email: 'hal@example.com' }),
    });
    assert.equal(created.status, 201, created.text);
    const listed = await t.request('GET', '/v1/availability/calendars', { auth: acme.apiKey });
    const grace = listed.body.data.find((c: { email: string }) => c.email === 'grace@acme.example');
    assert.equal(grace.status, 'following');
    const sync = () => t.request('POST', `/v1/availability/calendars/${grace.id}/sync`, { auth: acme.apiKey, body: {} });
    const first = await sync();
    assert.equal(first.status, 200, first.text);
    assert.deepEqual([first.body.status, first.body.full, first.body.error_code, first.body.calendar.fresh], ['succeeded', true, null, true]);
    const run = await t.request('GET', `/v1/integrations/runs/${first.body.run_id}`, { auth: acme.apiKey });
    assert.deepEqual([run.body.step, run.body.status], ['calendar_sync', 'succeeded']);
    // An event written straight into Grace's calendar: the fresh cache does not know it until the next sync.
    await graceCalendar.putEvent({
      uid: 'review@acme.example',
      sequence: 0,
      summary: 'Design review',
      start: new Date(at('15:00')),
      end: new Date(at('16:00')),
      organizer: { name: 'Grace Hopper', email: 'grace@acme.example' },
      attendees: [],
    });
    try {
      assert.ok(offered((await page(created.body.url)).text).includes(at('15:00')));
      const second = await sync();
      assert.deepEqual([second.body.status, second.body.full, second.body.changed], ['succeeded', false, 1], second.text);
      const synced = offered((await page(created.body.url)).text);
      assert.ok(!synced.includes(at('15:00')) && !synced.includes(at('10:00')), synced.join());
      // Stopped: the cached busy times go, nothing blocks Grace's hours (the stand-up and the review are offered), no sync.
      const stopped = await t.request('POST', `/v1/availability/calendars/${grace.id}/stop`, { auth: acme.apiKey, body: {} });
      assert.equal(stopped.status, 200, stopped.text);
      assert.deepEqual([stopped.body.status, stopped.body.fresh, stopped.body.synced_at], ['stopped', false, null]);
      assert.ok(stopped.body.stopped_at);
      assert.equal((await t.database.db('hi_availability_busy').where({ calendar_id: grace.id })).length, 0);
      const free = offered((await page(created.body.url)).text);
      assert.ok(free.includes(at('10:00')) && free.includes(at('15:00')), free.join());
      const refused = await sync();
      assert.deepEqual([refused.status, refused.body.error.code], [409, 'calendar_stopped']);
      const again = await t.request('POST', `/v1/availability/calendars/${grace.id}/stop`, { auth: acme.apiKey, body: {} });
      assert.deepEqual([again.status, again.body.stopped_at], [200, stopped.body.stopped_at]);
      // Resumed: read live until the job's next (full) sync; both events block again.
      const resumed = await t.request('POST', `/v1/availability/calendars/${grace.id}/resume`, { auth: acme.apiKey, body: {} });
      assert.deepEqual([resumed.status, resumed.body.status, resumed.body.stopped_at], [200, 'following', null]);
      const live = offered((await page(created.body.url)).text);
      assert.ok(!live.includes(at('15:00')) && !live.includes(at('10:00')), live.join());
      assert.equal((await sync()).body.full, true);
      assert.equal((await t.request('POST', `/v1/availability/calendars/${grace.id}/sync`, { auth: globex.apiKey, body: {} })).status, 404);
      assert.equal((await t.request('POST', '/v1/availability/calendars/acal_nope/stop', { auth: acme.apiKey, body: {} })).status, 404);
    } finally {
      await graceCalendar.deleteEvent('review@acme.example');
    }
  });
});
