/**
 * The CalDAV connector against Debian's xandikos (one per file), and iTIP invitations over
 * smtp-server (npm): discovery and the connection test's codes; busy times from events
 * (recurrences expanded, transparent ones skipped); events written by UID, replaced and
 * removed; incremental sync (sync-token) naming what changed and what was removed; the
 * invitation a recipient receives parses as iCalendar with METHOD, a stable UID and a
 * growing SEQUENCE, and a CANCEL for the same UID.
 */
import { strict as assert } from 'node:assert';
import ical, { type VEvent } from 'node-ical';
import { caldavConnector } from '../../src/connectors/caldav';
import { CaldavCalendarConnector } from '../../src/connectors/caldav/caldav-calendar';
import { SmtpNotificationConnector } from '../../src/connectors/smtp/smtp-client';
import type { CalendarEvent } from '../../src/features/scheduling/domain/calendar-port';
import { sendInvitation } from '../../src/features/scheduling/domain/invitations';
import { isDomainError } from '../../src/kernel/errors';
import { freePort } from '../helpers/processes';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server';
import { startXandikos, type Xandikos } from '../helpers/xandikos';

const day = '2026-12-01';
const at = (time: string) => new Date(`${day}T${time}:00Z`);
const range = { start: new Date(`${day}T00:00:00Z`), end: new Date('2026-12-04T00:00:00Z') };

describe('connector caldav: against xandikos; iTIP invitations over SMTP', function () {
  this.timeout(60_000);
  let dav: Xandikos;
  let smtp: TestSmtpServer;
  let calendar: CaldavCalendarConnector;

  const interview = (sequence: number, start: Date, end: Date): CalendarEvent => ({
    uid: 'itv-org_1-int_7@hiring-integrations',
    sequence,
    summary: 'Interview: Ada Lovelace',
    location: 'https://meet.example.com/acme-room',
    url: 'https://meet.example.com/acme-room',
    start,
    end,
    timezone: 'Europe/Berlin',
    organizer: { name: 'Acme Hiring', email: 'jobs@acme.example' },
    attendees: [
      { name: 'Ada Lovelace', email: 'ada@example.com' },
      { name: 'Grace Hopper', email: 'grace@acme.example' },
    ],
  });

  before(async () => {
    [dav, smtp] = await Promise.all([startXandikos(), startSmtpServer()]);
    calendar = new CaldavCalendarConnector(caldavConnector.settings.parse({ server_url: dav.url }), {});
  });
  after(async () => {
    await Promise.all([dav?.stop(), smtp?.close()]);
  });

  it('test(): discovers the calendar; nothing listening, a missing calendar and garbage credentials shape are refused with codes', async () => {
    const ok = await caldavConnector.test(caldavConnector.settings.parse({ server_url: dav.url }), {});
    assert.equal(ok.ok, true, JSON.stringify(ok));
    assert.ok(ok.ok && ok.detail.includes(dav.calendarUrl), JSON.stringify(ok));
    const closed = await freePort();
    const unreachable = await caldavConnector.test(caldavConnector.settings.parse({ server_url: `http://127.0.0.1:${closed}/` }), {});
    assert.equal(!unreachable.ok && unreachable.code, 'connection_unreachable', JSON.stringify(unreachable));
    const missing = await caldavConnector.test(caldavConnector.settings.parse({ server_url: dav.url, calendar_url: `${dav.url}user/calendars/nope/` }), {});
    assert.equal(!missing.ok && missing.code, 'connection_protocol_error', JSON.stringify(missing));
    assert.equal(caldavConnector.credentials.safeParse({ username: 'a' }).success, false);
    assert.equal(caldavConnector.settings.safeParse({ server_url: 'file:///etc/passwd' }).success, false);
    assert.deepEqual(
      (await calendar.calendars()).map((c) => c.url),
      [dav.calendarUrl],
    );
  });

  it('busy times come from the events: a daily recurrence expanded, a transparent event skipped', async () => {
    const put = (name: string, body: string) =>
      fetch(`${dav.calendarUrl}${name}.ics`, {
        method: 'PUT',
        headers: { 'content-type': 'text/calendar' },
        body: `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:${name}\r\nDTSTAMP:20261101T000000Z\r\n${body}END:VEVENT\r\nEND:VCALENDAR\r\n`,
      }).then((r) => assert.equal(r.status, 201));
    await put('standup', 'DTSTART:20261201T080000Z\r\nDTEND:20261201T081500Z\r\nRRULE:FREQ=DAILY;COUNT=3\r\nSUMMARY:Stand-up\r\n');
    await put('focus', 'DTSTART:20261201T100000Z\r\nDTEND:20261201T120000Z\r\nTRANSP:TRANSPARENT\r\nSUMMARY:Focus (free)\r\n');
    const busy = await calendar.busy(range);
    const standups = busy.filter((b) => b.uid === 'standup').map((b) => [b.start.toISOString(), b.end.toISOString()]);
    assert.deepEqual(standups.sort(), [
      ['2026-12-01T08:00:00.000Z', '2026-12-01T08:15:00.000Z'],
      ['2026-12-02T08:00:00.000Z', '2026-12-02T08:15:00.000Z'],
      ['2026-12-03T08:00:00.000Z', '2026-12-03T08:15:00.000Z'],
    ]);
    assert.ok(!busy.some((b) => b.uid === 'focus'), 'a transparent event is not busy');
  });

  it('writes an event by UID, replaces it on change (one event, the new time) and removes it; sync names each change', async () => {
    const initial = await calendar.changes();
    assert.equal(initial.full, true);
    const written = await calendar.putEvent(interview(0, at('14:00'), at('15:00')));
    assert.equal(written.url, `${dav.calendarUrl}itv-org_1-int_7%40hiring-integrations.ics`);
    let busy = (await calendar.busy(range)).filter((b) => b.uid === 'itv-org_1-int_7@hiring-integrations');
    assert.deepEqual(
      busy.map((b) => b.start.toISOString()),
      ['2026-12-01T14:00:00.000Z'],
    );
    const added = await calendar.changes(initial.state);
    assert.equal(added.full, false, 'incremental: the server gave a sync token');
    assert.deepEqual(
      added.changed.map((c) => c.url),
      [written.url],
    );
    assert.equal(added.changed[0]!.busy[0]!.start.toISOString(), '2026-12-01T14:00:00.000Z');
    await calendar.putEvent(interview(1, at('16:00'), at('17:00')));
    busy = (await calendar.busy(range)).filter((b) => b.uid === 'itv-org_1-int_7@hiring-integrations');
    assert.deepEqual(
      busy.map((b) => b.start.toISOString()),
      ['2026-12-01T16:00:00.000Z'],
    );
    const quiet = await calendar.changes((await calendar.changes(added.state)).state);
    assert.deepEqual([quiet.changed, quiet.removed], [[], []], 'nothing changed since the last state');
    await calendar.deleteEvent('itv-org_1-int_7@hiring-integrations');
    await calendar.deleteEvent('itv-org_1-int_7@hiring-integrations'); // already gone: fine
    const removed = await calendar.changes(quiet.state);
    assert.deepEqual(removed.removed, [written.url]);
    assert.ok(!(await calendar.busy(range)).some((b) => b.uid === 'itv-org_1-int_7@hiring-integrations'));
  });

  it('a server that is gone fails a step with a retryable code, never a crash', async () => {
    const closed = await freePort();
    const gone = new CaldavCalendarConnector(caldavConnector.settings.parse({ server_url: `http://127.0.0.1:${closed}/` }), {});
    await assert.rejects(gone.busy(range), (error: unknown) => isDomainError(error) && error.code === 'connection_unreachable' && error.kind === 'upstream');
  });

  it('the invitation arrives as iTIP: REQUEST with a stable UID, an update with a higher SEQUENCE, then CANCEL', async () => {
    const email = new SmtpNotificationConnector(
      { host: 'localhost', port: smtp.port, security: 'starttls', tls_ca: smtp.certificate, from_email: 'jobs@acme.example', pool: false },
      {},
    );
    try {
      const base = { organizationId: 'org_1', actionKey: 'scheduling.interview_scheduling', to: { name: 'Ada Lovelace', email: 'ada@example.com' } };
      await sendInvitation(email, { ...base, method: 'REQUEST', event: interview(0, at('14:00'), at('15:00')) });
      await sendInvitation(email, { ...base, method: 'REQUEST', event: interview(1, at('16:00'), at('17:00')) });
      await sendInvitation(email, { ...base, method: 'CANCEL', event: interview(2, at('16:00'), at('17:00')) });
    } finally {
      email.close();
    }
    const mails = smtp.received.map((r) => r.parsed);
    assert.equal(mails.length, 3);
    const seen = mails.map((mail) => {
      const part = mail.attachments.find((a) => a.contentType === 'text/calendar' || a.contentType === 'application/ics');
      assert.ok(part, `a text/calendar part in "${mail.subject}"`);
      const text = part.content.toString('utf8');
      const method = /^METHOD:(\w+)/m.exec(text)?.[1];
      const event = Object.values(ical.sync.parseICS(text)).find((c) => c?.type === 'VEVENT') as VEvent;
      return {
        subject: mail.subject,
        method,
        uid: event.uid,
        sequence: Number(event.sequence),
        start: new Date(event.start).toISOString(),
        status: event.status,
      };
    });
    assert.deepEqual(
      seen.map((s) => s.method),
      ['REQUEST', 'REQUEST', 'CANCEL'],
    );
    assert.deepEqual(new Set(seen.map((s) => s.uid)), new Set(['itv-org_1-int_7@hiring-integrations']));
    assert.deepEqual(
      seen.map((s) => s.sequence),
      [0, 1, 2],
    );
    assert.deepEqual(
      seen.map((s) => s.start),
      ['2026-12-01T14:00:00.000Z', '2026-12-01T16:00:00.000Z', '2026-12-01T16:00:00.000Z'],
    );
    assert.equal(seen[2]!.status, 'CANCELLED');
    assert.deepEqual(
      seen.map((s) => s.subject),
      ['Invitation: Interview: Ada Lovelace', 'Updated: Interview: Ada Lovelace', 'Canceled: Interview: Ada Lovelace'],
    );
  });
});
