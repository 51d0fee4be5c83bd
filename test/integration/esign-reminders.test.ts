/**
 * Reminders to sign on a test clock, over SMTP (the `smtp-server` package) and SMPP (the `smpp`
 * package's server): the organization's schedule (`PATCH /v1/esign/settings {reminders}`,
 * bounded, off possible), a due reminder in the signer's language with the same signing link
 * (by SMS too when the link went by SMS), none for a signed envelope or an organization that
 * turned them off, two sweeps racing send one, the notice a day before expiry, nothing after
 * expiry; each an action run and an `offer.reminder_sent` event. A 451 gives the slot back, a
 * 550 spends it.
 */
import { strict as assert } from 'node:assert';
import { activateLicense } from '../helpers/hooks';
import { eventsOf } from '../helpers/licensing';
import { waitFor } from '../helpers/profile-flow';
import { startSmppServer, type TestSmppServer } from '../helpers/smpp-server';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server';
import { startTestHost, type TestHost } from '../helpers/test-host';

const DAY = 86_400_000;

describe('e-signature reminders: the schedule, due reminders over SMTP, none once signed, one per slot under a race, the expiry notice', function () {
  this.timeout(60_000);
  let t: TestHost;
  let smtp: TestSmtpServer;
  let smsc: TestSmppServer;
  let acme: { organizationId: string; apiKey: string };
  let globex: { organizationId: string; apiKey: string };

  const mailsTo = (to: string) => smtp.received.filter((m) => m.envelope.to.includes(to));
  const smsTo = (digits: string) => smsc.received.filter((m) => m.to.includes(digits));
  const remind = (at: number) => t.request('POST', '/v1/esign/operator/remind', { auth: t.operatorKey, body: { at: new Date(at).toISOString() } });
  const envelope = (org: { apiKey: string }, reference: string, signer: object, expiresInDays = 10) =>
    t.request('POST', '/v1/esign/envelopes', {
      auth: org.apiKey,
      body: { kind: 'offer', reference_id: reference, signer, expires_in_days: expiresInDays },
    });
  const reminderEvents = (organizationId: string, envelopeId: string) =>
    eventsOf(t, organizationId, 'offer.reminder_sent').filter((e) => e.payload.envelope_id === envelopeId);

  before(async () => {
    [smtp, smsc, t] = await Promise.all([
      startSmtpServer(),
      startSmppServer({ systemId: 'acme', password: 'smsc-pw' }),
      startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0' } }),
    ]);
    acme = await t.createOrganization('Acme Hiring');
    globex = await t.createOrganization('Globex');
    for (const org of [acme, globex]) {
      await activateLicense(t, org.apiKey, 'esign.send_offer');
      const created = await t.request('POST', '/v1/integrations/connections', {
        auth: org.apiKey,
        body: {
          connector: 'smtp',
          settings: { host: 'localhost', port: smtp.port, from_email: 'offers@org.example', tls_ca: smtp.certificate },
          credentials: {},
        },
      });
      assert.equal(created.status, 201, created.text);
      const tested = await t.request('POST', `/v1/integrations/connections/${created.body.id}/test`, { auth: org.apiKey });
      assert.equal(tested.body.ok, true, tested.text);
    }
    // Acme sends SMS through an SMSC (the `smpp` package's own server).
    const sms = await t.request('POST', '/v1/integrations/connections', {
      auth: acme.apiKey,
      body: {
        connector: 'smpp',
        settings: { host: '127.0.0.1', port: smsc.port, source_addr: 'Acme' },
        credentials: { system_id: 'acme', password: 'smsc-pw' },
      },
    });
    assert.equal(sms.status, 201, sms.text);
    assert.equal((await t.request('POST', `/v1/integrations/connections/${sms.body.id}/test`, { auth: acme.apiKey })).body.ok, true);
  });
  after(async () => {
    await t?.close();
    await Promise.all([smtp?.close(), smsc?.close()]);
  });

  it('the schedule: defaults, a change merged, bounds as 400 parameter_invalid, off for one organization only', async () => {
    const defaults = await t.request('GET', '/v1/esign/settings', { auth: acme.apiKey });
    assert.equal(defaults.status, 200, defaults.text);
    assert.deepEqual(defaults.body.reminders, { enabled: true, first_after_days: 2, every_days: 3, expiry_notice: true });
    for (const reminders of [{ every_days: 0 }, { first_after_days: 31 }, { every_days: 1.5 }, { every_days: '3' }, { often: true }]) {
      const bad = await t.request('PATCH', '/v1/esign/settings', { auth: acme.apiKey, body: { reminders } });
      assert.equal(bad.status, 400, `${JSON.stringify(reminders)}: ${bad.text}`);
      assert.match(bad.body.error.code, /^parameter_(invalid|unknown)$/);
    }
    const set = await t.request('PATCH', '/v1/esign/settings', { auth: acme.apiKey, body: { reminders: { first_after_days: 2, every_days: 3 } } });
    assert.equal(set.status, 200, set.text);
    assert.deepEqual(set.body.reminders, { enabled: true, first_after_days: 2, every_days: 3, expiry_notice: true });
    assert.equal(set.body.signature_level, 'PAdES-B-B', 'the time-stamp authority is left as it was');
    const off = await t.request('PATCH', '/v1/esign/settings', { auth: globex.apiKey, body: { reminders: { enabled: false } } });
    assert.deepEqual(off.body.reminders, { enabled: false, first_after_days: 2, every_days: 3, expiry_notice: true });
    assert.equal((await t.request('GET', '/v1/esign/settings', { auth: acme.apiKey })).body.reminders.enabled, true, "Globex's change is Globex's");
  });

  it('due reminders go in the signer’s language with the same link; a signed envelope and a switched-off organization get none; two sweeps racing send one; the expiry notice; nothing after expiry', async () => {
    const open = await envelope(acme, 'off_r1', { name: 'Marie Curie', email: 'marie@example.com', phone: '+33612345678', language: 'fr' });
    assert.equal(open.status, 201, open.text);
    const signed = await envelope(acme, 'off_r2', { name: 'Pierre Curie', email: 'pierre@example.com' });
    const quiet = await envelope(globex, 'off_r3', { name: 'Irène Joliot', email: 'irene@example.com' });
    assert.equal(signed.status, 201, signed.text);
    assert.equal(quiet.status, 201, quiet.text);
    const created = Date.parse(open.body.created_at);
    assert.equal(Date.parse(open.body.next_reminder_at), created + 2 * DAY);
    assert.equal(quiet.body.next_reminder_at, null, 'reminders off');
    assert.deepEqual(open.body.reminders, []);

    // Pierre signs (typed name) through his link.
    const run0 = await t.request('GET', `/v1/integrations/runs/${signed.body.email_run_id}`, { auth: acme.apiKey });
    assert.equal(run0.body.status, 'succeeded', run0.text);
    await waitFor(async () => mailsTo('pierre@example.com').length === 1, 'Pierre’s signing link');
    const signedLink = /https?:\/\/\S+\/v1\/sign\?token=\S+/.exec(mailsTo('pierre@example.com')[0]!.parsed.text ?? '')![0];
    const signing = await t.request('POST', signedLink.slice(signedLink.indexOf('/v1/')), {
      rawBody: new URLSearchParams({ action: 'sign', typed_name: 'Pierre Curie', consent: 'yes' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(signing.status, 200, signing.text.slice(0, 300));
    assert.equal((await t.request('GET', `/v1/esign/envelopes/${signed.body.id}`, { auth: acme.apiKey })).body.status, 'signed');
    await waitFor(async () => mailsTo('marie@example.com').length === 1 && mailsTo('irene@example.com').length === 1, 'the other signing links');
    const link = /https?:\/\/\S+\/v1\/sign\?token=\S+/.exec(mailsTo('marie@example.com')[0]!.parsed.text ?? '')![0];

    // Before the first slot: nothing.
    assert.equal((await remind(created + 2 * DAY - 60_000)).body.reminded, 0);
    // Day 2: Marie's first reminder, in French, with the same link.
    const first = await remind(created + 2 * DAY + 60_000);
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.body, { reminded: 1, expiry_notices: 0, failed: 0, retry_later: 0 });
    await waitFor(async () => mailsTo('marie@example.com').length === 2, 'the first reminder');
    const reminder = mailsTo('marie@example.com')[1]!;
    assert.match(reminder.parsed.subject ?? '', /^Rappel : Acme Hiring attend votre signature/);
    assert.equal(reminder.parsed.headers.get('content-language'), 'fr');
    assert.ok((reminder.parsed.text ?? '').includes(link), 'the same signing link');
    // The link went by SMS too, so the reminder does.
    await waitFor(async () => smsTo('33612345678').length === 2, 'the link and the reminder by SMS');
    assert.match(smsTo('33612345678')[1]!.text, /^Rappel : Acme Hiring attend votre signature/);
    assert.ok(smsTo('33612345678')[1]!.text.endsWith(link));
    assert.equal(mailsTo('pierre@example.com').filter((m) => /Rappel|Reminder/.test(m.parsed.subject ?? '')).length, 0, 'signed: no reminder');
    assert.equal(mailsTo('irene@example.com').length, 1, 'reminders off: none');
    const seen = (await t.request('GET', `/v1/esign/envelopes/${open.body.id}`, { auth: acme.apiKey })).body;
    assert.equal(seen.reminders.length, 1);
    assert.equal(seen.reminders[0].kind, 'reminder');
    assert.equal(seen.reminders[0].number, 1);
    assert.ok(seen.events.some((e: { type: string; detail?: string }) => e.type === 'reminded' && e.detail === 'reminder 1 by email, sms'));
    assert.ok(seen.reminders[0].sms_run_id);
    const run = await t.request('GET', `/v1/integrations/runs/${seen.reminders[0].email_run_id}`, { auth: acme.apiKey });
    assert.equal(run.status, 200, run.text);
    assert.equal(run.body.status, 'succeeded');
    assert.equal(run.body.action, 'esign.send_offer');
    await waitFor(async () => reminderEvents(acme.organizationId, open.body.id).length === 1, 'offer.reminder_sent');
    const event = reminderEvents(acme.organizationId, open.body.id)[0]!.payload as { reminder: Record<string, unknown>; offer_id: string };
    assert.equal(event.offer_id, 'off_r1');
    assert.equal(event.reminder.kind, 'reminder');
    assert.equal(event.reminder.email_run_id, seen.reminders[0].email_run_id);
    // The same slot again (a retried job): nothing.
    assert.equal((await remind(created + 3 * DAY)).body.reminded, 0);

    // Day 5: two sweeps at once send the second reminder once.
    const raced = await Promise.all([remind(created + 5 * DAY + 60_000), remind(created + 5 * DAY + 60_000)]);
    assert.deepEqual(raced.map((r) => r.body.reminded).sort(), [0, 1], JSON.stringify(raced.map((r) => r.body)));
    await waitFor(async () => mailsTo('marie@example.com').length === 2 + 1, 'the second reminder');

    // Day 9 (a day before expiry): the notice, with the date and time, instead of the day-8 reminder it supersedes.
    const notice = await remind(Date.parse(open.body.expires_at) - DAY + 60_000);
    assert.deepEqual(notice.body, { reminded: 0, expiry_notices: 1, failed: 0, retry_later: 0 });
    await waitFor(async () => mailsTo('marie@example.com').length === 4, 'the expiry notice');
    const last = mailsTo('marie@example.com')[3]!;
    assert.match(last.parsed.subject ?? '', /^Dernier jour pour signer/);
    assert.match(last.parsed.text ?? '', /\(UTC\)/);
    assert.ok((last.parsed.text ?? '').includes(link));
    // After expiry: nothing, and the envelope says no reminder is coming.
    assert.deepEqual((await remind(Date.parse(open.body.expires_at) + 60_000)).body, { reminded: 0, expiry_notices: 0, failed: 0, retry_later: 0 });
    assert.equal(mailsTo('marie@example.com').length, 4);
    const final = (await t.request('GET', `/v1/esign/envelopes/${open.body.id}`, { auth: acme.apiKey })).body;
    assert.deepEqual(
      final.reminders.map((r: { kind: string; number: number }) => `${r.kind} ${r.number}`),
      ['reminder 1', 'reminder 2', 'expiry_notice 4'],
    );
    await waitFor(async () => reminderEvents(acme.organizationId, open.body.id).length === 3, 'three offer.reminder_sent');
    assert.equal(eventsOf(t, globex.organizationId, 'offer.reminder_sent').length, 0);
  });

  it('a mail server that does not answer gives the slot back and the next sweep sends it; a refused email spends the slot with its code', async () => {
    // Acme without a settings row again: the sweep reads the defaults (2 days, then every 3).
    await t.database.db('hi_esign_settings').where({ organization_id: acme.organizationId }).delete();
    const open = await envelope(acme, 'off_r4', { name: 'Grace Hopper', email: 'grace@example.com' });
    assert.equal(open.status, 201, open.text);
    const created = Date.parse(open.body.created_at);
    await waitFor(async () => mailsTo('grace@example.com').length === 1, 'Grace’s signing link');
    smtp.failNext(1, 451, 'Try again later');
    assert.deepEqual((await remind(created + 2 * DAY + 60_000)).body, { reminded: 0, expiry_notices: 0, failed: 0, retry_later: 1 });
    assert.deepEqual((await t.request('GET', `/v1/esign/envelopes/${open.body.id}`, { auth: acme.apiKey })).body.reminders, []);
    assert.deepEqual((await remind(created + 2 * DAY + 120_000)).body, { reminded: 1, expiry_notices: 0, failed: 0, retry_later: 0 });
    await waitFor(async () => mailsTo('grace@example.com').length === 2, 'the reminder, second try');
    assert.match(mailsTo('grace@example.com')[1]!.parsed.subject ?? '', /^Reminder: Acme Hiring is waiting for your signature/);
    const retried = (await t.request('GET', `/v1/esign/envelopes/${open.body.id}`, { auth: acme.apiKey })).body;
    const run = (await t.request('GET', `/v1/integrations/runs/${retried.reminders[0].email_run_id}`, { auth: acme.apiKey })).body;
    assert.equal(run.status, 'succeeded');
    assert.equal(run.attempts.length, 2, 'one run, tried twice');

    smtp.failNext(1, 550, 'No such user');
    assert.deepEqual((await remind(created + 5 * DAY + 60_000)).body, { reminded: 0, expiry_notices: 0, failed: 1, retry_later: 0 });
    assert.deepEqual((await remind(created + 5 * DAY + 120_000)).body.failed, 0, 'the slot is spent');
    const refused = (await t.request('GET', `/v1/esign/envelopes/${open.body.id}`, { auth: acme.apiKey })).body;
    assert.equal(refused.reminders.length, 2);
    assert.equal(refused.reminders[1].email_run_id, null);
    assert.ok(refused.reminders[1].error, JSON.stringify(refused.reminders[1]));
    await waitFor(async () => reminderEvents(acme.organizationId, open.body.id).length === 1, 'one offer.reminder_sent');
    assert.equal(reminderEvents(acme.organizationId, open.body.id).length, 1, 'none for the refused one');
  });
});
