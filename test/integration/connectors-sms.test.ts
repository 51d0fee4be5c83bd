/**
 * SMS connectors end to end, through the API and the reminder jobs, against counterparts
 * we did not write: an SMSC (the `smpp` package's own server) and Prism answering from
 * Twilio's published OpenAPI description (test/fixtures/twilio/). A refused bind fails the
 * connection test with connection_auth_failed; `sms.interview_reminder` goes hook → job →
 * submit_sm and its run holds the SMSC's message_id, the encoding and the segment count; a
 * throttled SMSC is retried and the message delivered once; Twilio answers a Message SID.
 */
import { strict as assert } from 'node:assert';
import path from 'node:path';
import * as smpp from 'smpp';
import { PACKAGE_ROOT } from '../../src/platform/manifest/manifest';
import { activateLicense } from '../helpers/hooks';
import { rememberSecret } from '../helpers/log-capture';
import { startPrism, type PrismServer } from '../helpers/prism';
import { waitFor } from '../helpers/profile-flow';
import { startSmppServer, type TestSmppServer } from '../helpers/smpp-server';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { twilioSignature } from '../../src/connectors/twilio/twilio-signature';

const PASSWORD = 'pa55wrd';
const WRONG = 'wr0ngpw';
const AUTH_TOKEN = 'twilio-auth-token-0123456789abcdef';
const TWILIO_SPEC = path.join(PACKAGE_ROOT, 'test/fixtures/twilio/twilio_api_v2010.messages.json');

describe('connectors: SMS over SMPP and the Twilio Messages API', function () {
  this.timeout(60_000);
  let t: TestHost;
  let smsc: TestSmppServer;
  let prism: PrismServer;
  let acme: { organizationId: string; apiKey: string };
  let globex: { organizationId: string; apiKey: string };
  let smppConnection: string;
  let twilioConnection: string;
  let twilioReference: string;

  /** Posts a form to the plugin as Twilio does: signed over the URL Twilio was given and the sorted fields. */
  const postTwilio = (
    organizationId: string,
    connectionId: string,
    kind: 'status' | 'inbound',
    form: Record<string, string>,
    token: string | null = AUTH_TOKEN,
  ) => {
    const path = `/v1/sms/twilio/${organizationId}/${connectionId}/${kind}`;
    return t.request('POST', path, {
      rawBody: new URLSearchParams(form).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(token ? { 'x-twilio-signature': twilioSignature(token, t.config.baseUrl + path, form) } : {}),
      },
    });
  };
  const optedOut = (organizationId: string) => t.database.db('hi_sms_opt_outs').where({ organization_id: organizationId });

  const fire = (organizationId: string, id: string, name: string, phone: string, extra: { language?: string; timezone?: string; startsAt?: Date } = {}) =>
    t.request('POST', '/host/v1/hooks/interview.scheduled', {
      auth: t.operatorKey,
      body: {
        organization_id: organizationId,
        payload: {
          interview_id: id,
          candidate: { name, phone, ...(extra.language ? { language: extra.language } : {}) },
          starts_at: (extra.startsAt ?? new Date(Date.now() + 500)).toISOString(),
          title: 'Onsite interview',
          ...(extra.timezone ? { timezone: extra.timezone } : {}),
        },
      },
    });
  const settledReminder = (organizationId: string, interviewId: string) =>
    waitFor(async () => {
      const row = await t.database.db('hi_interview_reminders').where({ organization_id: organizationId, interview_id: interviewId, channel: 'sms' }).first();
      return row && row.status !== 'scheduled' ? row : undefined;
    }, `the SMS reminder of ${interviewId} to settle`);
  const run = async (apiKey: string, id: string) => (await t.request('GET', `/v1/integrations/runs/${id}`, { auth: apiKey })).body;
  const storedResult = async (id: string) => {
    const row = await t.database.db('hi_action_runs').where({ id }).first();
    return typeof row.result === 'string' ? JSON.parse(row.result) : row.result;
  };

  before(async () => {
    rememberSecret(PASSWORD);
    rememberSecret(WRONG);
    rememberSecret(AUTH_TOKEN);
    // Prism (a separate Node process) starts while the host does.
    [smsc, prism, t] = await Promise.all([
      startSmppServer({ systemId: 'acme', password: PASSWORD }),
      startPrism(TWILIO_SPEC),
      startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0', REMINDER_LEAD_MINUTES: '0' } }),
    ]);
    acme = await t.createOrganization('Acme');
    globex = await t.createOrganization('Globex');
    await activateLicense(t, acme.apiKey, 'sms.interview_reminder');
    await activateLicense(t, globex.apiKey, 'sms.interview_reminder');
  });
  after(async () => {
    await t?.close();
    await Promise.all([smsc?.close(), prism?.stop()]);
  });

  it('SMPP: a refused bind fails the connection test with connection_auth_failed; the right password verifies', async () => {
    const created = await t.request('POST', '/v1/integrations/connections', {
      auth: acme.apiKey,
      body: {
        connector: 'smpp',
        settings: { host: '127.0.0.1', port: smsc.port, source_addr: 'AcmeHiring' },
        credentials: { system_id: 'acme', password: WRONG },
      },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.kind, 'sms');
    smppConnection = created.body.id;
    const failed = await t.request('POST', `/v1/integrations/connections/${smppConnection}/test`, { auth: acme.apiKey });
    assert.equal(failed.status, 200, failed.text);
    assert.equal(failed.body.ok, false);
    assert.equal(failed.body.code, 'connection_auth_failed');
    assert.ok(!failed.text.includes(WRONG));
    const tooLong = await t.request('PATCH', `/v1/integrations/connections/${smppConnection}`, {
      auth: acme.apiKey,
      body: { credentials: { system_id: 'acme', password: 'longer-than-eight' } },
    });
    assert.equal(tooLong.status, 400, tooLong.text);
    assert.equal(tooLong.body.error.param, 'credentials.password');
    await t.request('PATCH', `/v1/integrations/connections/${smppConnection}`, {
      auth: acme.apiKey,
      body: { credentials: { system_id: 'acme', password: PASSWORD } },
    });
    const ok = await t.request('POST', `/v1/integrations/connections/${smppConnection}/test`, { auth: acme.apiKey });
    assert.equal(ok.body.ok, true, ok.text);
    assert.equal(ok.body.connection.status, 'verified');
    assert.deepEqual(
      smsc.binds.map((b) => b.ok),
      [false, true],
    );
    assert.equal(smsc.received.length, 0, 'a connection test sends nothing');
    assert.ok(smsc.enquireLinks >= 1, 'the test made an enquire_link round trip');
  });

  it('SMPP: sms.interview_reminder goes hook → job → submit_sm; the run holds the message_id, GSM-7 and one segment', async () => {
    assert.equal((await fire(acme.organizationId, 'int_smpp', 'Ada Lovelace', '+4915112345678')).status, 200);
    const row = await settledReminder(acme.organizationId, 'int_smpp');
    assert.equal(row.status, 'sent', JSON.stringify(row));
    assert.equal(smsc.received.length, 1);
    const sms = smsc.received[0]!;
    assert.equal(sms.to, '4915112345678');
    assert.equal(sms.from, 'AcmeHiring');
    assert.equal(sms.registeredDelivery, 1, 'a delivery receipt is asked for');
    assert.equal(sms.dataCoding, smpp.ENCODING.SMSC_DEFAULT);
    assert.match(sms.text, /^Hello Ada Lovelace, a reminder: "Onsite interview" starts \w+day, \w+ \d{1,2}, \d{4} at \d{1,2}:\d{2} [AP]M \(UTC\)\.$/);
    const r = await run(acme.apiKey, row.delivery_id);
    assert.equal(r.status, 'succeeded');
    assert.equal(r.connector, 'smpp');
    assert.equal(r.reference, sms.messageId);
    assert.deepEqual(await storedResult(r.id), { encoding: 'GSM-7', segments: 1, delivery_status: 'queued' });
  });

  it('SMPP: text outside GSM-7 goes as UCS-2; a throttled SMSC is retried and the message delivered once', async () => {
    smsc.failNextSubmit(smpp.ESME_RTHROTTLED);
    const before = smsc.received.length;
    await fire(acme.organizationId, 'int_ucs2', 'Łukasz Żółć', '+48601234567');
    const row = await settledReminder(acme.organizationId, 'int_ucs2');
    assert.equal(row.status, 'sent', JSON.stringify(row));
    assert.equal(smsc.received.length, before + 1);
    const sms = smsc.received.at(-1)!;
    assert.equal(sms.dataCoding, smpp.ENCODING.UCS2);
    assert.match(sms.text, /Łukasz Żółć/);
    const r = await run(acme.apiKey, row.delivery_id);
    assert.deepEqual(
      r.attempts.map((a: { outcome: string }) => a.outcome),
      ['transient_error', 'succeeded'],
    );
    assert.equal(r.attempts[0].error_code, 'counterpart_unavailable');
    const stored = await storedResult(r.id);
    assert.equal(stored.encoding, 'UCS-2');
    assert.equal(stored.segments, 2, 'the UCS-2 reminder is longer than 70 units');
  });

  it("SMPP: the reminder SMS speaks the candidate's language (es, ar) with the time in the interview's zone; UCS-2 segments counted", async () => {
    // Zones without daylight saving, so the expected wall-clock time is plain arithmetic.
    const startsAt = new Date(Date.now() + 1_000);
    const wall = (offsetHours: number) => new Date(startsAt.getTime() + offsetHours * 3_600_000);
    const bogota = wall(-5);
    const riyadh = wall(3);
    const pad = (n: number) => String(n).padStart(2, '0');
    const before = smsc.received.length;
    await fire(acme.organizationId, 'int_es', 'Lucía Pérez', '+573001234567', { language: 'es-CO', timezone: 'America/Bogota', startsAt });
    await fire(acme.organizationId, 'int_ar', 'ليلى حسن', '+966501234567', { language: 'ar', timezone: 'Asia/Riyadh', startsAt });
    const es = await settledReminder(acme.organizationId, 'int_es');
    const ar = await settledReminder(acme.organizationId, 'int_ar');
    assert.equal(es.status, 'sent', JSON.stringify(es));
    assert.equal(ar.status, 'sent', JSON.stringify(ar));
    assert.equal(smsc.received.length, before + 2);
    const received = (to: string) => smsc.received.find((m) => m.to === to)!;

    const esSms = received('573001234567');
    assert.equal(esSms.dataCoding, smpp.ENCODING.UCS2, 'í is outside GSM-7');
    const esMonth = ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'][
      bogota.getUTCMonth()
    ];
    assert.equal(
      esSms.text.replace(/^(Hola, Lucía Pérez: te recordamos que «Onsite interview» empieza el )\p{L}+, /u, '$1<día>, '),
      `Hola, Lucía Pérez: te recordamos que «Onsite interview» empieza el <día>, ${bogota.getUTCDate()} de ${esMonth} de ${bogota.getUTCFullYear()}, ` +
        // es-CO: Spanish words, Colombian clock (12-hour, "a. m."/"p. m.").
        `${bogota.getUTCHours() % 12 || 12}:${pad(bogota.getUTCMinutes())} ${bogota.getUTCHours() < 12 ? 'a. m.' : 'p. m.'} (America/Bogota).`,
    );
    const esStored = await storedResult((await run(acme.apiKey, es.delivery_id)).id);
    assert.equal(esStored.encoding, 'UCS-2');
    assert.equal(esStored.segments, esSms.text.length <= 70 ? 1 : Math.ceil(esSms.text.length / 67));

    const arSms = received('966501234567');
    assert.equal(arSms.dataCoding, smpp.ENCODING.UCS2);
    const hour12 = riyadh.getUTCHours() % 12 || 12;
    const meridiem = riyadh.getUTCHours() < 12 ? 'ص' : 'م';
    assert.match(arSms.text, /^مرحبًا ليلى حسن، تذكير: يبدأ "Onsite interview" في /u);
    assert.ok(arSms.text.includes(`${riyadh.getUTCFullYear()}`), arSms.text);
    assert.ok(arSms.text.includes(`${hour12}:${pad(riyadh.getUTCMinutes())}`) && arSms.text.includes(meridiem), arSms.text);
    assert.ok(arSms.text.endsWith('(Asia/Riyadh).'), arSms.text);
    const arStored = await storedResult((await run(acme.apiKey, ar.delivery_id)).id);
    assert.equal(arStored.encoding, 'UCS-2', 'Arabic travels as UCS-2');
    assert.equal(arStored.segments, arSms.text.length <= 70 ? 1 : Math.ceil(arSms.text.length / 67));
  });

  it('SMPP: after the SMSC dropped the session, the next message binds again and goes out', async () => {
    const binds = smsc.binds.length;
    smsc.dropSessions();
    await fire(acme.organizationId, 'int_rebind', 'Ada Lovelace', '+4915112345679');
    const row = await settledReminder(acme.organizationId, 'int_rebind');
    assert.equal(row.status, 'sent', JSON.stringify(row));
    assert.equal(smsc.binds.length, binds + 1);
    assert.equal(smsc.received.at(-1)!.to, '4915112345679');
  });

  it('SMPP: an invalid destination fails the run at once with recipient_invalid', async () => {
    smsc.failNextSubmit(smpp.ESME_RINVDSTADR);
    await fire(acme.organizationId, 'int_baddest', 'Ada Lovelace', '+4915100000000');
    const row = await settledReminder(acme.organizationId, 'int_baddest');
    assert.equal(row.status, 'failed');
    assert.equal(row.reason, 'recipient_invalid');
  });

  it("Twilio (Prism over Twilio's description): the test fetches the account; the reminder's run holds the Message SID", async () => {
    const created = await t.request('POST', '/v1/integrations/connections', {
      auth: globex.apiKey,
      body: {
        connector: 'twilio',
        settings: {
          account_sid: 'ACaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
          from: '+14155552345',
          status_callback_url: 'https://hiring.example/v1/sms/twilio/status',
          api_base_url: prism.url,
        },
        credentials: { auth_token: AUTH_TOKEN },
      },
    });
    assert.equal(created.status, 201, created.text);
    const both = await t.request('PATCH', `/v1/integrations/connections/${created.body.id}`, {
      auth: globex.apiKey,
      body: { settings: { account_sid: 'ACaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', api_base_url: prism.url } },
    });
    assert.equal(both.status, 400, 'a sender is required');
    const tested = await t.request('POST', `/v1/integrations/connections/${created.body.id}/test`, { auth: globex.apiKey });
    assert.equal(tested.body.ok, true, tested.text);
    await fire(globex.organizationId, 'int_twilio', 'Grace Hopper', '+14155550100');
    const row = await settledReminder(globex.organizationId, 'int_twilio');
    assert.equal(row.status, 'sent', JSON.stringify(row));
    const r = await run(globex.apiKey, row.delivery_id);
    assert.equal(r.connector, 'twilio');
    assert.match(r.reference, /^SM[0-9a-f]{32}$/);
    assert.deepEqual(await storedResult(r.id), { encoding: 'GSM-7', segments: 1, delivery_status: 'queued' });
    twilioConnection = created.body.id;
    twilioReference = r.reference;
  });

  it('Twilio status callbacks: signed ones update the run (never backwards) and publish sms.delivery_updated; unsigned 400, forged 403', async () => {
    const callback = (status: string, extra: Record<string, string> = {}) => ({
      MessageSid: twilioReference,
      MessageStatus: status,
      AccountSid: 'ACaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      To: '+14155550100',
      ...extra,
    });
    const unsigned = await postTwilio(globex.organizationId, twilioConnection, 'status', callback('delivered'), null);
    assert.equal(unsigned.status, 400, unsigned.text);
    assert.equal(unsigned.body.error.code, 'webhook_signature_missing');
    const forged = await postTwilio(globex.organizationId, twilioConnection, 'status', callback('delivered'), 'someone-elses-auth-token-0000');
    assert.equal(forged.status, 403, forged.text);
    assert.equal(forged.body.error.code, 'webhook_signature_invalid');
    const elsewhere = await postTwilio(acme.organizationId, twilioConnection, 'status', callback('delivered'));
    assert.equal(elsewhere.status, 404, "another organization's path does not reach the connection");
    assert.equal((await postTwilio(globex.organizationId, twilioConnection, 'status', callback('sent'))).status, 204);
    assert.equal((await postTwilio(globex.organizationId, twilioConnection, 'status', callback('delivered'))).status, 204);
    // Twilio does not promise order: a late `sent` leaves `delivered` alone.
    assert.equal((await postTwilio(globex.organizationId, twilioConnection, 'status', callback('sent'))).status, 204);
    const row = await t.database.db('hi_action_runs').where({ reference: twilioReference }).first();
    const stored = await storedResult(row.id);
    assert.equal(stored.delivery_status, 'delivered');
    assert.equal(stored.delivery_error_code, null);
    assert.equal((await run(globex.apiKey, row.id)).delivery_status, 'delivered');
    const events = await waitFor(async () => {
      const found = t.host.hooks.recent.filter((e) => e.hook === 'sms.delivery_updated');
      return found.length >= 2 ? found : undefined;
    }, 'sms.delivery_updated');
    assert.deepEqual(
      events.map((e) => (e.payload as { delivery_status: string }).delivery_status),
      ['sent', 'delivered'],
    );
    assert.equal((events[1]!.payload as { run_id: string }).run_id, row.id);
    const garbage = await postTwilio(globex.organizationId, twilioConnection, 'status', callback('exploded'));
    assert.equal(garbage.status, 400);
    assert.equal(garbage.body.error.param, 'MessageStatus');
  });

  it('SMPP delivery receipts (deliver_sm, esm_class 0x04) update the run holding the message_id', async () => {
    const first = smsc.received[0]!;
    smsc.sendReceipt(first.messageId, 'DELIVRD');
    const stored = await waitFor(async () => {
      const row = await t.database.db('hi_action_runs').where({ connector: 'smpp', reference: first.messageId }).first();
      const result = await storedResult(row.id);
      return result.delivery_status === 'delivered' ? result : undefined;
    }, 'the receipt to be recorded');
    assert.equal(stored.encoding, 'GSM-7');
  });

  it('STOP opt-outs: Twilio inbound STOP and SMPP MO "stop" stop later SMS with recipient_opted_out; START resumes', async () => {
    const inbound = await postTwilio(globex.organizationId, twilioConnection, 'inbound', { From: '+14155550100', To: '+14155552345', Body: ' Stop ' });
    assert.equal(inbound.status, 200, inbound.text);
    assert.match(inbound.text, /<Response><\/Response>/);
    assert.equal((await optedOut(globex.organizationId)).length, 1);
    assert.ok(!JSON.stringify(await optedOut(globex.organizationId)).includes('4155550100'), 'only an HMAC of the number is kept');
    await fire(globex.organizationId, 'int_stopped', 'Grace Hopper', '+14155550100');
    const stopped = await settledReminder(globex.organizationId, 'int_stopped');
    assert.equal(stopped.status, 'failed');
    assert.equal(stopped.reason, 'recipient_opted_out');
    const runs = await t.request('GET', '/v1/integrations/runs?status=failed', { auth: globex.apiKey });
    const r = runs.body.data.find((x: { error: { code: string } }) => x.error.code === 'recipient_opted_out');
    assert.equal(r.connector, 'twilio');
    assert.equal(r.attempts.length, 1, 'final: not retried');
    assert.equal(await postTwilio(globex.organizationId, twilioConnection, 'inbound', { From: '+14155550100', Body: 'START' }).then((x) => x.status), 200);
    await fire(globex.organizationId, 'int_resumed', 'Grace Hopper', '+14155550100');
    assert.equal((await settledReminder(globex.organizationId, 'int_resumed')).status, 'sent');
    // Twilio's own error 21610 (the carrier knows the number said STOP) opts the number out too.
    await postTwilio(globex.organizationId, twilioConnection, 'status', {
      MessageSid: twilioReference.replace(/^SM./, 'SMf'),
      MessageStatus: 'failed',
      ErrorCode: '21610',
      To: '+14155550111',
    });
    assert.equal((await optedOut(globex.organizationId)).length, 1);
    // SMPP: a mobile-originated "stop" on the bound session.
    smsc.sendInbound('+4915112345678', 'AcmeHiring', 'stop');
    await waitFor(async () => ((await optedOut(acme.organizationId)).length === 1 ? true : undefined), 'the SMPP opt-out');
    const sent = smsc.received.length;
    await fire(acme.organizationId, 'int_smpp_stopped', 'Ada Lovelace', '+4915112345678');
    const row = await settledReminder(acme.organizationId, 'int_smpp_stopped');
    assert.equal(row.reason, 'recipient_opted_out');
    assert.equal(smsc.received.length, sent, 'nothing reached the SMSC');
  });

  it("another organization's SMS connection answers 404", async () => {
    assert.equal((await t.request('GET', `/v1/integrations/connections/${smppConnection}`, { auth: globex.apiKey })).status, 404);
    assert.equal((await t.request('POST', `/v1/integrations/connections/${smppConnection}/test`, { auth: globex.apiKey })).status, 404);
  });
});
