/**
 * Shifts (scheduling.shift_scheduling) end to end against counterparts we did not write: an
 * SMTP server (smtp-server; every message parsed back with mailparser and its text/calendar
 * part with node-ical) and an SMSC (the `smpp` package's own server). A published shift
 * reaches the person as an iTIP REQUEST (UID, SEQUENCE 0) and an SMS with a signed link;
 * the page confirms or declines (shift.confirmed / shift.declined), a changed link is a 400;
 * a change is a REQUEST with the same UID and a higher SEQUENCE, a cancellation a CANCEL;
 * the reminder goes out once on the test clock (SMS, else email); the person's webcal feed
 * lists their upcoming shifts, omits cancelled ones and is revoked by rotating it.
 */
import { strict as assert } from 'node:assert';
import ical, { type VEvent } from 'node-ical';
import { activateLicense } from '../helpers/hooks';
import { waitFor } from '../helpers/profile-flow';
import { startSmppServer, type TestSmppServer } from '../helpers/smpp-server';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server';
import { startTestHost, type TestHost } from '../helpers/test-host';

const ACTION = 'scheduling.shift_scheduling';
const PASSWORD = 'pa55wrd';
const HOUR = 3_600_000;

describe('shifts: invitations, confirmations, reminders and feeds', function () {
  this.timeout(60_000);
  let t: TestHost;
  let smtp: TestSmtpServer;
  let smsc: TestSmppServer;
  let acme: { organizationId: string; apiKey: string };
  let globex: { organizationId: string; apiKey: string };
  let shift: any;
  let confirmUrl: string;
  // Three days ahead, on the hour: far from any real reminder or sweep.
  const start = new Date(Math.ceil((Date.now() + 72 * HOUR) / HOUR) * HOUR);

  const as = (method: string, path: string, body?: unknown, auth = acme.apiKey, headers?: Record<string, string>) =>
    t.request(method, path, { auth, body, ...(headers ? { headers } : {}) });
  const path = (url: string) => url.replace(t.baseUrl, '');
  const post = (url: string, form: Record<string, string>) =>
    t.request('POST', path(url), { rawBody: new URLSearchParams(form).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  const invites = () =>
    smtp.received
      .filter((m) => m.parsed.attachments.some((a) => a.contentType === 'text/calendar'))
      .map(({ parsed: mail, envelope }) => {
        const text = mail.attachments.find((a) => a.contentType === 'text/calendar')!.content.toString('utf8');
        const event = Object.values(ical.sync.parseICS(text)).find((c) => c?.type === 'VEVENT') as VEvent;
        return {
          to: envelope.to[0],
          subject: mail.subject,
          text: mail.text ?? '',
          html: typeof mail.html === 'string' ? mail.html : '',
          language: mail.headers.get('content-language'),
          summary: event.summary,
          method: /^METHOD:(\w+)/m.exec(text)?.[1],
          uid: event.uid,
          sequence: Number(event.sequence),
          start: new Date(event.start),
        };
      });
  const events = (type: string) => t.host.hooks.recent.filter((e) => e.hook === type);
  const sweep = (at: Date, auth = t.operatorKey) => t.request('POST', '/v1/shifts/operator/sweep', { auth, body: { at: at.toISOString() } });

  before(async function () {
    this.timeout(90_000);
    [smtp, smsc] = await Promise.all([startSmtpServer(), startSmppServer({ systemId: 'acme', password: PASSWORD })]);
    t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
    acme = await t.createOrganization('Acme Diner');
    globex = await t.createOrganization('Globex');
    await activateLicense(t, acme.apiKey, ACTION);
    const connect = async (connector: string, settings: Record<string, unknown>, credentials: Record<string, unknown> = {}) => {
      const created = await as('POST', '/v1/integrations/connections', { connector, settings, credentials });
      assert.equal(created.status, 201, created.text);
      const tested = await as('POST', `/v1/integrations/connections/${created.body.id}/test`);
      assert.equal(tested.body.ok, true, tested.text);
    };
    await connect('smtp', { host: 'localhost', port: smtp.port, security: 'starttls', from_email: 'shifts@acme.example', tls_ca: smtp.certificate });
    await connect('smpp', { host: '127.0.0.1', port: smsc.port, source_addr: 'AcmeDiner' }, { system_id: 'acme', password: PASSWORD });
  });
  after(async () => {
    await t?.close();
    await Promise.all([smtp?.close(), smsc?.close()]);
  });

  it('publishing sends an iTIP REQUEST (UID, SEQUENCE 0) and an SMS with a signed link, each an action run; the restaurants package is for sale', async () => {
    const body = {
      employee: { id: 'emp_lucia', name: 'Lucía Pérez', email: 'lucia@example.com', phone: '+14155550123', timezone: 'America/New_York', language: 'es-US' },
      location: 'Acme Diner, 12 Main St',
      role: 'Line cook',
      starts_at: start.toISOString(),
      ends_at: new Date(start.getTime() + 8 * HOUR).toISOString(),
    };
    const refused = await as('POST', '/v1/shifts', body, globex.apiKey);
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body.error.code, 'license_required');
    const bad = await as('POST', '/v1/shifts', { ...body, ends_at: body.starts_at });
    assert.equal(bad.status, 400, bad.text);
    assert.equal(bad.body.error.code, 'shift_times_invalid');

    const created = await as('POST', '/v1/shifts', body, acme.apiKey, { 'idempotency-key': 'shift-lucia-1' });
    assert.equal(created.status, 201, created.text);
    const again = await as('POST', '/v1/shifts', body, acme.apiKey, { 'idempotency-key': 'shift-lucia-1' });
    assert.equal(again.body.id, created.body.id);
    shift = created.body;
    assert.deepEqual(
      [shift.status, shift.sequence, shift.response, shift.remind_at],
      ['scheduled', 0, 'pending', new Date(start.getTime() - 2 * HOUR).toISOString()],
    );

    const [invite] = await waitFor(async () => (invites().length > 0 ? invites() : undefined), 'the invitation');
    assert.deepEqual([invite!.method, invite!.uid, invite!.sequence, invite!.start.toISOString()], ['REQUEST', shift.uid, 0, start.toISOString()]);
    // What Lucía reads is in her language (es-US: the Spanish strings), subject, text part and the event's SUMMARY.
    assert.equal(invite!.language, 'es-US');
    assert.equal(invite!.subject, 'Invitación: Turno de Line cook — Acme Diner, 12 Main St');
    assert.equal(invite!.summary, 'Turno de Line cook — Acme Diner, 12 Main St');
    const lines = invite!.text.trim().split('\n');
    assert.equal(lines[0], 'Turno de Line cook — Acme Diner, 12 Main St');
    assert.match(lines[1]!, /^Cuándo: .*\d{4}.* \(America\/New_York\)$/);
    assert.equal(lines[2], 'Dónde: Acme Diner, 12 Main St');
    assert.match(lines[3]!, /^Detalles y respuesta: http:\/\/127\.0\.0\.1:\d+\/v1\/shifts\/confirm\?token=/);
    assert.match(lines[4]!, /^Organizador: /);
    assert.doesNotMatch(invite!.text, /When:|Where:|Organizer:|Details/);
    // The HTML part has the same words, in her language.
    assert.match(invite!.html, /<html lang="es-US" dir="ltr">/);
    assert.match(invite!.html, /<p>Dónde: Acme Diner, 12 Main St<\/p>/);
    assert.match(invite!.html, /<p>Detalles y respuesta: <a href="http:\/\/127\.0\.0\.1:\d+\/v1\/shifts\/confirm\?token=/);
    const sms = await waitFor(async () => smsc.received[0], 'the SMS');
    assert.equal(sms.to, '14155550123');
    assert.match(sms.text, /^Lucía Pérez, tu turno: .+, Acme Diner, 12 Main St\. Confirma o rechaza: http:\/\/127\.0\.0\.1:\d+\/v1\/shifts\/confirm\?token=/);
    confirmUrl = /http:\S+/.exec(sms.text)![0];

    const read = await waitFor(async () => {
      const r = await as('GET', `/v1/shifts/${shift.id}`);
      return r.body.delivery.status === 'sent' ? r : undefined;
    }, 'the delivery recorded');
    const runs = await t.database.db('hi_action_runs').where({ organization_id: acme.organizationId, action: ACTION }).orderBy('step');
    assert.deepEqual(
      runs.map((r: { step: string; status: string }) => [r.step, r.status]),
      [
        ['email', 'succeeded'],
        ['sms', 'succeeded'],
      ],
    );
    assert.deepEqual([read.body.delivery.email_run_id, read.body.delivery.sms_run_id].sort(), runs.map((r: { id: string }) => r.id).sort());

    // Runnable, so buyable: the restaurants package no longer holds an action this build cannot run.
    const catalog = await as('GET', '/v1/integrations/catalog');
    const action = catalog.body.groups.flatMap((g: { actions: any[] }) => g.actions).find((a: { key: string }) => a.key === ACTION);
    assert.equal(action.availability.status, 'available', JSON.stringify(action));
    const pkg = await as('POST', '/v1/integrations/packages/restaurants/subscribe', undefined, globex.apiKey);
    assert.notEqual(pkg.body?.error?.code, 'package_not_available', pkg.text);
  });

  it('without a working email connection the license waits in requires_connection (missing email), unbilled', async () => {
    const initech = await t.createOrganization('Initech Grill');
    const created = await as(
      'POST',
      '/v1/integrations/connections',
      {
        connector: 'smtp',
        settings: { host: 'localhost', port: smtp.port, security: 'starttls', from_email: 'shifts@initech.example', tls_ca: smtp.certificate },
        credentials: { username: 'initech', password: 'not-the-password' },
      },
      initech.apiKey,
    );
    assert.equal(created.status, 201, created.text);
    assert.equal((await as('POST', `/v1/integrations/connections/${created.body.id}/test`, undefined, initech.apiKey)).body.code, 'connection_auth_failed');
    const catalog = await as('GET', '/v1/integrations/catalog', undefined, initech.apiKey);
    const action = catalog.body.groups.flatMap((g: { actions: any[] }) => g.actions).find((a: { key: string }) => a.key === ACTION);
    assert.deepEqual([action.availability.status, action.availability.missing], ['requires_connection', ['email']]);
    const bought = await as('POST', `/v1/integrations/licenses/${ACTION}/activate`, undefined, initech.apiKey);
    assert.equal(bought.status, 202, bought.text);
    assert.deepEqual([bought.body.status, bought.body.missing_connections], ['requires_connection', ['email']]);
  });

  it('the signed link confirms once (shift.confirmed), in the person’s language; a changed link is a 400', async () => {
    const shown = await t.request('GET', path(confirmUrl));
    assert.equal(shown.status, 200);
    assert.match(shown.text, /<html lang="es-US" dir="ltr">/);
    assert.match(shown.text, /<button class="primary" type="submit">Ahí estaré<\/button>/);
    assert.match(shown.text, /<dd>Line cook<\/dd>/);
    for (let i = 0; i < 2; i += 1) {
      const confirmed = await post(confirmUrl, { decision: 'confirmed', sequence: '0' });
      assert.equal(confirmed.status, 200);
      assert.match(confirmed.text, /role="status">Gracias, tu turno está confirmado\./);
    }
    const tampered = await post(
      confirmUrl.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
      { decision: 'confirmed', sequence: '0' },
    );
    assert.equal(tampered.status, 400);
    assert.equal(tampered.headers.get('x-error-code'), 'link_invalid');
    const confirmed = await waitFor(async () => (events('shift.confirmed').length > 0 ? events('shift.confirmed') : undefined), 'shift.confirmed');
    assert.equal(confirmed.length, 1);
    assert.deepEqual((confirmed[0]!.payload as any).shift_id, shift.id);
    assert.equal((await as('GET', `/v1/shifts/${shift.id}`)).body.response, 'confirmed');
    assert.equal((await as('GET', `/v1/shifts/${shift.id}`, undefined, globex.apiKey)).status, 404);
  });

  it('a change is a REQUEST with the same UID and SEQUENCE 1 (a CANCEL to a replaced address) and asks again; an answer to the old version records nothing; declined', async () => {
    const later = new Date(start.getTime() + HOUR);
    const changed = await as('PATCH', `/v1/shifts/${shift.id}`, {
      starts_at: later.toISOString(),
      ends_at: new Date(later.getTime() + 8 * HOUR).toISOString(),
      employee: { email: 'lucia.perez@example.com' },
    });
    assert.equal(changed.status, 200, changed.text);
    assert.deepEqual([changed.body.sequence, changed.body.response, changed.body.uid], [1, 'pending', shift.uid]);
    const second = await waitFor(async () => invites().find((i) => i.method === 'REQUEST' && i.sequence === 1), 'the updated invitation');
    assert.deepEqual([second.to, second.uid, second.start.toISOString()], ['lucia.perez@example.com', shift.uid, later.toISOString()]);
    const retracted = invites().find((i) => i.method === 'CANCEL');
    assert.deepEqual([retracted?.to, retracted?.uid, retracted?.sequence], ['lucia@example.com', shift.uid, 1], 'the old address drops the event');
    assert.match(second.subject ?? '', /^Actualizado: Turno de Line cook/);
    assert.match(retracted!.subject ?? '', /^Cancelado: /);
    assert.match(retracted!.text, /Este evento se ha cancelado\./);
    await waitFor(async () => smsc.received[1], 'the SMS about the change');
    assert.match(smsc.received[1]!.text, /tu turno cambió/);

    const stale = await post(confirmUrl, { decision: 'confirmed', sequence: '0' });
    assert.equal(stale.status, 409);
    assert.match(stale.text, /Este turno cambió/);
    const declined = await post(confirmUrl, { decision: 'declined', sequence: '1' });
    assert.equal(declined.status, 200);
    assert.match(declined.text, /role="status">Gracias, sabemos que no puedes\./);
    await waitFor(async () => events('shift.declined')[0], 'shift.declined');
    assert.equal(events('shift.confirmed').length, 1);
    shift = (await as('GET', `/v1/shifts/${shift.id}`)).body;
    assert.equal(shift.response, 'declined');
  });

  it('the reminder goes out once on the test clock: SMS, or email without a phone', async () => {
    const bob = await as('POST', '/v1/shifts', {
      employee: { id: 'emp_bob', name: 'Bob Baker', email: 'bob@example.com' },
      location: 'Acme Diner, 12 Main St',
      starts_at: shift.starts_at,
      ends_at: shift.ends_at,
      remind_minutes_before: 60,
    });
    assert.equal(bob.status, 201, bob.text);
    const startsAt = new Date(shift.starts_at).getTime();
    const smsBefore = smsc.received.length;
    assert.equal((await sweep(new Date(startsAt - 121 * 60_000))).body.reminded, 0);
    assert.equal((await sweep(new Date(startsAt - 119 * 60_000))).body.reminded, 1);
    assert.equal(smsc.received.length, smsBefore + 1);
    assert.match(smsc.received[smsBefore]!.text, /^Recordatorio: tu turno empieza .+ en Acme Diner, 12 Main St\. http/);
    assert.equal((await sweep(new Date(startsAt - 61 * 60_000))).body.reminded, 0, 'once');
    assert.equal((await sweep(new Date(startsAt - 59 * 60_000))).body.reminded, 1);
    const mail = await waitFor(
      async () => smtp.received.find((m) => m.envelope.to[0] === 'bob@example.com' && /^Reminder/.test(m.parsed.subject ?? '')),
      'Bob’s email',
    );
    assert.match(mail.parsed.text ?? '', /your shift starts .+ at Acme Diner, 12 Main St\./);
    assert.equal((await sweep(new Date(startsAt - 10 * 60_000))).body.reminded, 0, 'once each');
    assert.equal(smsc.received.length, smsBefore + 1);
    assert.equal((await sweep(new Date(startsAt), acme.apiKey)).status, 403);
  });

  it('the delayed job sends a reminder at remind_at by itself, without a sweep', async () => {
    const soon = new Date(Date.now() + 5 * 60_000 + 1_500);
    const created = await as('POST', '/v1/shifts', {
      employee: { id: 'emp_carla', name: 'Carla Cook', phone: '+14155550177' },
      location: 'Acme Diner, 12 Main St',
      starts_at: soon.toISOString(),
      ends_at: new Date(soon.getTime() + 4 * HOUR).toISOString(),
      remind_minutes_before: 5,
    });
    assert.equal(created.status, 201, created.text);
    const reminder = await waitFor(
      async () => smsc.received.find((m) => m.to === '14155550177' && /^Reminder: your shift starts /.test(m.text)),
      'the reminder from the delayed job',
    );
    assert.match(reminder.text, /at Acme Diner, 12 Main St\. http/);
    // Marked once sent (the send comes first: a failure in between leaves it to be sent again under the same key, never lost).
    await waitFor(async () => (await as('GET', `/v1/shifts/${created.body.id}`)).body.reminded_at ?? undefined, 'reminded_at');
  });

  it('the webcal feed lists the person’s upcoming shifts; a cancellation is a CANCEL (same UID) and leaves it; rotating revokes the old link', async () => {
    const second = await as('POST', '/v1/shifts', {
      employee: { id: 'emp_lucia', name: 'Lucía Pérez', phone: '+14155550123', language: 'es' },
      location: 'Acme Diner, 12 Main St',
      starts_at: new Date(start.getTime() + 24 * HOUR).toISOString(),
      ends_at: new Date(start.getTime() + 30 * HOUR).toISOString(),
    });
    assert.equal(second.status, 201, second.text);
    const page1 = await as('GET', '/v1/shifts?employee_id=emp_lucia&limit=1');
    assert.deepEqual([page1.body.data[0].id, page1.body.has_more], [shift.id, true]);
    const page2 = await as('GET', `/v1/shifts?employee_id=emp_lucia&limit=1&starting_after=${shift.id}`);
    assert.deepEqual([page2.body.data[0].id, page2.body.has_more], [second.body.id, false]);

    const link = await as('POST', '/v1/shifts/feeds', { employee_id: 'emp_lucia' });
    assert.equal(link.status, 200, link.text);
    assert.match(link.body.webcal_url, /^webcal:\/\/127\.0\.0\.1:\d+\/v1\/shifts\/feed\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.ics$/);
    const feed = async (url: string) => {
      const response = await t.request('GET', path(url));
      return { status: response.status, type: response.headers.get('content-type'), text: response.text, code: response.headers.get('x-error-code') };
    };
    const uids = (text: string) =>
      Object.values(ical.sync.parseICS(text))
        .filter((c) => c?.type === 'VEVENT')
        .map((e) => `${(e as VEvent).uid}#${(e as VEvent).sequence}`)
        .sort();
    const listed = await feed(link.body.url);
    assert.equal(listed.status, 200);
    assert.equal(listed.type, 'text/calendar; charset=utf-8');
    assert.deepEqual(uids(listed.text), [`${shift.uid}#1`, `${second.body.uid}#0`].sort());

    const cancelled = await as('DELETE', `/v1/shifts/${shift.id}`);
    assert.deepEqual([cancelled.status, cancelled.body.status, cancelled.body.sequence], [200, 'cancelled', 2]);
    assert.equal((await as('DELETE', `/v1/shifts/${shift.id}`)).body.sequence, 2, 'idempotent');
    const cancel = await waitFor(async () => invites().find((i) => i.method === 'CANCEL' && i.sequence === 2), 'the CANCEL');
    assert.deepEqual([cancel.to, cancel.uid], ['lucia.perez@example.com', shift.uid]);
    assert.deepEqual(uids((await feed(link.body.url)).text), [`${second.body.uid}#0`]);
    assert.equal((await as('PATCH', `/v1/shifts/${shift.id}`, { notes: 'too late' })).body.error.code, 'shift_cancelled');

    const rotated = await as('POST', '/v1/shifts/feeds', { employee_id: 'emp_lucia', rotate: true });
    assert.notEqual(rotated.body.url, link.body.url);
    const revoked = await feed(link.body.url);
    assert.deepEqual([revoked.status, revoked.code], [410, 'link_revoked']);
    assert.equal((await feed(rotated.body.url)).status, 200);
    const tampered = await feed(rotated.body.url.replace(/emp|\.ics$/, (m: string) => (m === '.ics' ? 'A.ics' : m)));
    assert.deepEqual([tampered.status, tampered.code], [400, 'link_invalid']);
    assert.equal((await as('POST', '/v1/shifts/feeds', { employee_id: 'emp_nobody' })).status, 404);
    // Globex (the restaurants package bought above, or not) has no emp_lucia of its own.
    assert.ok([403, 404].includes((await as('POST', '/v1/shifts/feeds', { employee_id: 'emp_lucia' }, globex.apiKey)).status));
  });

  it('shifts from the host’s hooks: published once per shift_id (REQUEST), updated (same UID, SEQUENCE + 1; a repeat sends nothing), cancelled (CANCEL)', async () => {
    const fire = (hook: string, payload: object, organizationId = acme.organizationId) =>
      t.request('POST', `/host/v1/hooks/${hook}`, { auth: t.operatorKey, body: { organization_id: organizationId, payload } });
    const shiftStart = new Date(start.getTime() + 48 * HOUR);
    const published = {
      shift_id: 'pos-shift-77',
      employee: { id: 'emp_marco', name: 'Marco Rossi', email: 'marco@example.com', timezone: 'Europe/Rome', language: 'en' },
      location: 'Acme Diner, 12 Main St',
      role: 'Server',
      starts_at: shiftStart.toISOString(),
      ends_at: new Date(shiftStart.getTime() + 6 * HOUR).toISOString(),
    };
    const forMarco = () => invites().filter((i) => i.to === 'marco@example.com');
    const first = await fire('shift.published', published);
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.body.handled, ['shift-published'], first.text);
    const made = first.body.outcomes[0].result;
    assert.deepEqual([made.created, made.host_shift_id, made.sequence, made.status], [true, 'pos-shift-77', 0, 'scheduled']);
    const request = await waitFor(async () => forMarco().find((i) => i.method === 'REQUEST'), 'the REQUEST');
    assert.deepEqual([request.uid, request.sequence, request.start.toISOString()], [made.uid, 0, shiftStart.toISOString()]);
    const read = await as('GET', `/v1/shifts/${made.shift_id}`);
    assert.deepEqual([read.body.host_shift_id, read.body.employee.id, read.body.role], ['pos-shift-77', 'emp_marco', 'Server']);
    // Delivered again: the same shift, nothing sent again.
    const again = await fire('shift.published', published);
    assert.deepEqual([again.body.outcomes[0].result.shift_id, again.body.outcomes[0].result.created], [made.shift_id, false]);
    // Moved an hour later: a REQUEST with the same UID and SEQUENCE 1; the same report again changes nothing.
    const later = new Date(shiftStart.getTime() + HOUR).toISOString();
    const moved = await fire('shift.updated', { shift_id: 'pos-shift-77', starts_at: later, ends_at: new Date(shiftStart.getTime() + 7 * HOUR).toISOString() });
    assert.deepEqual([moved.body.outcomes[0].result.sequence, moved.body.outcomes[0].result.changed], [1, true], moved.text);
    const update = await waitFor(async () => forMarco().find((i) => i.method === 'REQUEST' && i.sequence === 1), 'the changed REQUEST');
    assert.deepEqual([update.uid, update.start.toISOString()], [made.uid, later]);
    const same = await fire('shift.updated', { shift_id: 'pos-shift-77', starts_at: later });
    assert.deepEqual([same.body.outcomes[0].result.sequence, same.body.outcomes[0].result.changed], [1, false], same.text);
    const cancelled = await fire('shift.cancelled', { shift_id: 'pos-shift-77' });
    assert.deepEqual([cancelled.body.outcomes[0].result.status, cancelled.body.outcomes[0].result.sequence], ['cancelled', 2], cancelled.text);
    const cancel = await waitFor(async () => forMarco().find((i) => i.method === 'CANCEL'), 'the CANCEL');
    assert.deepEqual([cancel.uid, cancel.sequence], [made.uid, 2]);
    assert.equal(forMarco().length, 3, 'one message per version');
    // Refused input is skipped with its code; another organization (no license) is skipped; nothing is made.
    const bad = await fire('shift.published', { ...published, shift_id: 'pos-shift-78', ends_at: published.starts_at });
    assert.match(bad.body.outcomes[0].reason, /^shift_times_invalid/, bad.text);
    const noEmployee = await fire('shift.published', { ...published, shift_id: 'pos-shift-79', employee: { id: 'emp_x', name: 'X' } });
    assert.match(noEmployee.body.outcomes[0].reason, /^invalid_payload: employee\.email/, noEmployee.text);
    const unknown = await fire('shift.updated', { shift_id: 'pos-shift-404', notes: 'x' });
    assert.match(unknown.body.outcomes[0].reason, /^shift_not_found/, unknown.text);
    const initech = await t.createOrganization('Initech');
    const unlicensed = await fire('shift.published', published, initech.organizationId);
    assert.deepEqual([unlicensed.body.handled, unlicensed.body.skipped], [[], ['shift-published']], unlicensed.text);
    const hostShifts = await t.database.db('hi_shifts').whereNotNull('host_shift_id').whereIn('organization_id', [acme.organizationId, initech.organizationId]);
    assert.deepEqual(
      hostShifts.map((r: { host_shift_id: string; organization_id: string }) => [r.host_shift_id, r.organization_id]),
      [['pos-shift-77', acme.organizationId]],
    );
  });
});
