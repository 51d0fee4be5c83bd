/**
 * Verifications (`sms.two_factor_auth`) end to end: the code goes through the
 * organization's SMPP connection to an SMSC we did not write (the `smpp` package's own
 * server) and is read back from what the SMSC received. Approved, wrong five times, expiry
 * (the same rows checked by a service on a test clock 11 minutes ahead), the per-destination
 * send limit, the license gate, another organization's verification, and what is stored.
 */
import { strict as assert } from 'node:assert';
import { activateLicense } from '../helpers/hooks';
import { rememberSecret } from '../helpers/log-capture';
import { waitFor } from '../helpers/profile-flow';
import { startSmppServer, type TestSmppServer } from '../helpers/smpp-server';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { deriveKey } from '../../src/platform/security/key-derivation';
import { VerificationService } from '../../src/features/verifications/domain/verification-service';
import { KnexVerificationRepository } from '../../src/features/verifications/storage/knex-verification-repository';
import { totpCode } from '../../src/features/verifications/domain/totp-factors';

const PASSWORD = 'pa55wrd';

describe('verifications: one-time codes by SMS (sms.two_factor_auth)', function () {
  this.timeout(60_000);
  let t: TestHost;
  let smsc: TestSmppServer;
  let acme: { organizationId: string; apiKey: string };
  let globex: { organizationId: string; apiKey: string };

  const send = (apiKey: string, body: unknown) => t.request('POST', '/v1/verifications', { auth: apiKey, body });
  const check = (apiKey: string, to: string, code: string) => t.request('POST', '/v1/verifications/check', { auth: apiKey, body: { to, code } });
  /** The code in the last message the SMSC received for `to` (E.164 without the +). */
  const codeSentTo = (to: string) => {
    const sms = smsc.received.filter((m) => m.to === to.slice(1)).at(-1);
    assert.ok(sms, `no SMS reached ${to}`);
    return { code: /\b(\d{6})\b/.exec(sms.text)![1]!, text: sms.text };
  };
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  before(async () => {
    rememberSecret(PASSWORD);
    [smsc, t] = await Promise.all([startSmppServer({ systemId: 'acme', password: PASSWORD }), startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0' } })]);
    acme = await t.createOrganization('Acme');
    globex = await t.createOrganization('Globex');
    await activateLicense(t, acme.apiKey, 'sms.two_factor_auth');
    const connection = await t.request('POST', '/v1/integrations/connections', {
      auth: acme.apiKey,
      body: {
        connector: 'smpp',
        settings: { host: '127.0.0.1', port: smsc.port, source_addr: 'Acme' },
        credentials: { system_id: 'acme', password: PASSWORD },
      },
    });
    assert.equal(connection.status, 201, connection.text);
    const tested = await t.request('POST', `/v1/integrations/connections/${connection.body.id}/test`, { auth: acme.apiKey });
    assert.equal(tested.body.ok, true, tested.text);
  });
  after(async () => {
    await t?.close();
    await smsc?.close();
  });

  it('sends a 6-digit code over SMPP in the recipient’s language; the right code is approved once', async () => {
    const to = '+4915112345678';
    const sent = await send(acme.apiKey, { channel: 'sms', to, locale: 'de-AT' });
    assert.equal(sent.status, 201, sent.text);
    assert.equal(sent.body.status, 'pending');
    assert.equal(sent.body.livemode, true);
    assert.equal(Date.parse(sent.body.expires_at) - Date.parse(sent.body.created_at), 10 * 60_000);
    const { code, text } = codeSentTo(to);
    assert.match(text, /^Ihr Bestätigungscode lautet \d{6}\./);
    const run = await t.request('GET', `/v1/integrations/runs/${sent.body.run_id}`, { auth: acme.apiKey });
    assert.equal(run.body.status, 'succeeded');
    assert.equal(run.body.action, 'sms.two_factor_auth');
    assert.equal(run.body.connector, 'smpp');
    assert.equal(run.body.reference, smsc.received.at(-1)!.messageId, "the run holds the SMSC's message_id");
    // Stored: hashes only, neither the number nor the code.
    const row = await t.database.db('hi_verifications').where({ id: sent.body.id }).first();
    assert.ok(!JSON.stringify(row).includes('15112345678') && !JSON.stringify(row).includes(code), JSON.stringify(row));
    const approved = await check(acme.apiKey, '+49 151 1234 5678'.replace(/ /g, ''), code);
    assert.equal(approved.status, 200, approved.text);
    assert.deepEqual(approved.body, { object: 'verification_check', verification_id: sent.body.id, status: 'approved', attempts_remaining: 0 });
    assert.equal((await check(acme.apiKey, to, code)).status, 404, 'a spent code is not checked again');
    assert.equal((await t.request('GET', `/v1/verifications/${sent.body.id}`, { auth: acme.apiKey })).body.status, 'approved');
  });

  it('a wrong code: pending four times, then max_attempts_reached, after which even the right code is refused', async () => {
    const to = '+4915100000002';
    assert.equal((await send(acme.apiKey, { channel: 'sms', to })).status, 201);
    const { code, text } = codeSentTo(to);
    assert.match(text, /^Your verification code is \d{6}\. It expires in 10 minutes\.$/);
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push((await check(acme.apiKey, to, wrong(code))).body);
    assert.deepEqual(
      answers.map((a) => [a.status, a.attempts_remaining]),
      [
        ['pending', 4],
        ['pending', 3],
        ['pending', 2],
        ['pending', 1],
        ['max_attempts_reached', 0],
      ],
    );
    assert.equal((await check(acme.apiKey, to, code)).body.status, 'max_attempts_reached');
    const malformed = await check(acme.apiKey, to, '12ab56');
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.error.param, 'code');
  });

  it('expires after 10 minutes (checked on a test clock 11 minutes ahead)', async () => {
    const to = '+4915100000003';
    assert.equal((await send(acme.apiKey, { channel: 'sms', to })).status, 201);
    const { code } = codeSentTo(to);
    const keys = { code: deriveKey(t.config.secretKey, 'verification-codes'), destination: deriveKey(t.config.secretKey, 'verification-destinations') };
    const later = new VerificationService(
      new KnexVerificationRepository(t.database.db),
      {} as never,
      { allows: () => true },
      keys,
      () => new Date(Date.now() + 11 * 60_000),
    );
    assert.equal((await later.check(acme.organizationId, to, code)).status, 'expired');
    const nineMinutes = new VerificationService(
      new KnexVerificationRepository(t.database.db),
      {} as never,
      { allows: () => true },
      keys,
      () => new Date(Date.now() + 9 * 60_000),
    );
    assert.equal((await nineMinutes.check(acme.organizationId, to, code)).status, 'approved');
  });

  it('at most 5 sends per destination every 10 minutes: the 6th answers 429 with Retry-After; only the newest code counts', async () => {
    const to = '+4915100000004';
    const ids: string[] = [];
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) {
      const sent = await send(acme.apiKey, { channel: 'sms', to });
      assert.equal(sent.status, 201, sent.text);
      ids.push(sent.body.id);
      codes.push(codeSentTo(to).code);
    }
    const limited = await send(acme.apiKey, { channel: 'sms', to });
    assert.equal(limited.status, 429, limited.text);
    assert.equal(limited.body.error.code, 'verification_rate_limited');
    const retryAfter = Number(limited.headers.get('retry-after'));
    assert.ok(retryAfter > 590 && retryAfter <= 600, `Retry-After ${retryAfter}`);
    assert.equal((await send(acme.apiKey, { channel: 'sms', to: '+4915100000005' })).status, 201, 'another destination is not limited');
    assert.equal((await t.request('GET', `/v1/verifications/${ids[0]}`, { auth: acme.apiKey })).body.status, 'canceled');
    if (codes[0] !== codes[4]) assert.equal((await check(acme.apiKey, to, codes[0]!)).body.status, 'pending', 'an earlier code no longer works');
    assert.equal((await check(acme.apiKey, to, codes[4]!)).body.status, 'approved');
  });

  it('without the license: 403 license_required, nothing stored or sent; another organization’s verification is 404', async () => {
    const received = smsc.received.length;
    for (const response of [await send(globex.apiKey, { channel: 'sms', to: '+4915100000006' }), await check(globex.apiKey, '+4915100000006', '123456')]) {
      assert.equal(response.status, 403, response.text);
      assert.equal(response.body.error.code, 'license_required');
    }
    assert.equal((await t.database.db('hi_verifications').where({ organization_id: globex.organizationId })).length, 0);
    assert.equal(smsc.received.length, received);
    const acmes = await t.database.db('hi_verifications').where({ organization_id: acme.organizationId }).first();
    const foreign = await t.request('GET', `/v1/verifications/${acmes.id}`, { auth: globex.apiKey });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error.code, 'resource_missing');
  });

  it("a candidate's erasure naming the phone number deletes their verifications, found by the destination's HMAC", async () => {
    const to = '+4915100000007';
    assert.equal((await send(acme.apiKey, { channel: 'sms', to })).status, 201);
    const erasure = await t.request('POST', '/v1/candidates/usr_verifiedPhone/erasure', { auth: acme.apiKey, body: { phones: [to] } });
    assert.equal(erasure.status, 202, erasure.text);
    await waitFor(
      async () => (await t.database.db('hi_candidate_erasures').where({ id: erasure.body.id }).whereNot({ status: 'pending' })).length === 1,
      'the erasure',
    );
    assert.equal((await check(acme.apiKey, to, '000000')).status, 404, 'no verification is left for the number');
    assert.ok((await t.database.db('hi_verifications').where({ organization_id: acme.organizationId })).length > 0, 'other destinations keep theirs');
  });

  it('by email without an email connection: the test-mode sandbox answers livemode false; bad input is a stable 400', async () => {
    // A verification that expired more than a day ago is pruned by the organization's next send.
    const old = new Date(Date.now() - 2 * 86_400_000);
    const stale = {
      organization_id: acme.organizationId,
      channel: 'sms',
      destination_hash: 'x',
      code_hash: 'y',
      status: 'pending',
      created_at: old,
      expires_at: old,
      updated_at: old,
    };
    await t.database.db('hi_verifications').insert({ id: 'ver_stale', ...stale });
    const sent = await send(acme.apiKey, { channel: 'email', to: 'Ada@Example.com', locale: 'fr' });
    assert.equal((await t.database.db('hi_verifications').where({ id: 'ver_stale' })).length, 0);
    assert.equal(sent.status, 201, sent.text);
    assert.equal(sent.body.livemode, false);
    for (const body of [
      { channel: 'sms', to: '015112345678' },
      { channel: 'email', to: 'not-an-address' },
      { channel: 'fax', to: '+4915112345678' },
      { channel: 'sms' },
    ]) {
      const response = await send(acme.apiKey, body);
      assert.equal(response.status, 400, `${JSON.stringify(body)} → ${response.status}`);
      assert.equal(typeof response.body.error.code, 'string');
    }
  });

  it('TOTP: enrollment answers an otpauth:// URI, a QR code as SVG and the secret once (stored sealed); codes ±1 step approve, a used step or five wrong codes do not', async () => {
    const identity = 'ada@example.com';
    const enrolled = await send(acme.apiKey, { channel: 'totp', to: identity, issuer: 'Acme Careers' });
    assert.equal(enrolled.status, 201, enrolled.text);
    assert.equal(enrolled.body.channel, 'totp');
    assert.equal(enrolled.body.status, 'pending');
    const { uri, qr_svg: svg, secret } = enrolled.body.totp;
    const parsed = new URL(uri);
    assert.equal(parsed.protocol, 'otpauth:');
    assert.equal(parsed.host, 'totp');
    assert.equal(decodeURIComponent(parsed.pathname), '/Acme Careers:ada@example.com');
    assert.equal(parsed.searchParams.get('secret'), secret);
    assert.equal(parsed.searchParams.get('issuer'), 'Acme Careers');
    assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]*viewBox="0 0 \d+ \d+"/);
    const row = await t.database.db('hi_totp_factors').where({ id: enrolled.body.id }).first();
    assert.ok(!JSON.stringify(row).includes(secret) && !JSON.stringify(row).includes('ada@'), 'secret sealed, identity hashed');
    const totpCheck = (code: string, apiKey = acme.apiKey) =>
      t.request('POST', '/v1/verifications/check', { auth: apiKey, body: { channel: 'totp', to: identity, code } });
    const now = Math.floor(Date.now() / 1000);
    // The app's clock one step behind: still accepted (±1 step).
    const late = totpCode(secret, now - 30);
    const approved = await totpCheck(late);
    assert.equal(approved.body.status, 'approved', approved.text);
    assert.equal((await t.request('GET', `/v1/verifications/${enrolled.body.id}`, { auth: acme.apiKey })).body.status, 'approved');
    assert.equal((await totpCheck(late)).body.status, 'pending', 'a step used once is refused');
    assert.equal((await totpCheck(totpCode(secret, now - 120))).body.status, 'pending', 'four steps back is too far');
    assert.equal((await totpCheck(late, globex.apiKey)).status, 403, "another organization's check is license-gated (and finds nothing)");
    assert.equal((await t.request('GET', `/v1/verifications/${enrolled.body.id}`, { auth: globex.apiKey })).status, 404);
    const wrong6 = (c: string) => String((Number(c) + 500_000) % 1_000_000).padStart(6, '0');
    const answers: string[] = [];
    for (let i = 0; i < 5; i += 1) answers.push((await totpCheck(wrong6(totpCode(secret, now)))).body.status);
    // Two wrong answers were counted above (the reused step, the stale code): the fifth wrong in a row locks.
    assert.deepEqual(answers, ['pending', 'pending', 'max_attempts_reached', 'max_attempts_reached', 'max_attempts_reached']);
    assert.equal((await totpCheck(totpCode(secret, now + 30))).body.status, 'max_attempts_reached', 'locked for ten minutes, even the right code');
  });
});
