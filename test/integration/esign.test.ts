/**
 * E-signature built in (esign.send_offer, esign.send_agreement) end to end: templates checked
 * on save, an offer.created hook making the envelope and emailing the link over SMTP (the
 * `smtp-server` package), the signer's page (tampered link, consent, typed and drawn
 * signature), the sealed PDF verified by Debian's `pdfsig` (and a byte-modified copy
 * refused) and its CMS read by `openssl` (PAdES-B-B: ETSI.CAdES.detached, signing-certificate-v2
 * naming the signer certificate's hash, no signing-time), its audit-trail page read by `pdftotext`, an agreement declined, expiry on the
 * test clock, an uploaded PKCS#12, PAdES-B-T with a real RFC 3161 time-stamp authority
 * (`openssl ts -reply` behind HTTP; the token checked by `openssl ts -verify`), and the license gate.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { selfSignedP12 } from '../../src/features/esign/documents/certificates';
import { chromiumMissing, launchChromium } from '../helpers/browser';
import { skipBecause } from '../helpers/skip';
import { activateLicense } from '../helpers/hooks';
import { eventsOf } from '../helpers/licensing';
import { waitFor } from '../helpers/profile-flow';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { startTimestampAuthority } from '../helpers/timestamp-authority';

/** An RGBA PNG with a diagonal stroke, as a canvas would send it (smaller). */
function drawnPng(width = 60, height = 20): string {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const rows = Buffer.alloc(height * (1 + width * 4));
  for (let y = 0; y < height; y++) {
    const x = Math.floor((y * width) / height);
    rows.set([17, 17, 17, 255], y * (1 + width * 4) + 1 + x * 4);
  }
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString('base64')}`;
}
const DRAWN = drawnPng();

interface Asn1Line {
  offset: number;
  header: number;
  length: number;
  text: string;
}
/** `openssl asn1parse` of a DER file, line by line (offset, header and content lengths, the rest). */
function asn1parse(file: string, cwd: string): Asn1Line[] {
  const out = spawnSync('openssl', ['asn1parse', '-inform', 'DER', '-in', file], { cwd, encoding: 'utf8' });
  assert.equal(out.status, 0, out.stderr);
  return out.stdout
    .split('\n')
    .map((line) => /^\s*(\d+):d=\s*\d+\s+hl=\s*(\d+) l=\s*(\d+) (.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ offset: Number(m[1]), header: Number(m[2]), length: Number(m[3]), text: m[4]! }));
}

/** The CMS in a signed PDF's /Contents and the bytes its /ByteRange covers. */
function signatureOf(pdf: Buffer): { cms: Buffer; signedBytes: Buffer } {
  const range = /\/ByteRange \[(\d+) (\d+) (\d+) (\d+)\s*\]/.exec(pdf.toString('latin1'));
  assert.ok(range, 'a /ByteRange');
  const [start, length, secondStart, secondLength] = range.slice(1).map(Number) as [number, number, number, number];
  const hex = pdf.subarray(start + length + 1, secondStart - 1).toString('latin1');
  const cms = Buffer.from(hex, 'hex');
  // The /Contents is zero-padded after the DER: its outer SEQUENCE's length says where it ends (long form, 2 length bytes here).
  assert.equal(cms[0], 0x30);
  assert.equal(cms[1], 0x82);
  return {
    cms: cms.subarray(0, 4 + cms.readUInt16BE(2)),
    signedBytes: Buffer.concat([pdf.subarray(start, start + length), pdf.subarray(secondStart, secondStart + secondLength)]),
  };
}

describe('e-signature: templates, the signer’s page, the sealed PDF (pdfsig), decline and expiry', function () {
  this.timeout(90_000);
  let t: TestHost;
  let smtp: TestSmtpServer;
  let acme: { organizationId: string; apiKey: string };
  let globex: { organizationId: string; apiKey: string };
  const dir = mkdtempSync(path.join(tmpdir(), 'esign-'));

  const fire = (hook: string, organizationId: string, payload: object) =>
    t.request('POST', `/host/v1/hooks/${hook}`, { auth: t.operatorKey, body: { organization_id: organizationId, payload } });
  const post = (p: string, fields: Record<string, string>) =>
    t.request('POST', p, {
      rawBody: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'esign-test/1.0' },
    });
  const linkIn = (to: string) => {
    const mail = smtp.received.filter((m) => m.envelope.to.includes(to)).at(-1);
    assert.ok(mail, `no mail reached ${to}`);
    const url = /https?:\/\/\S+\/v1\/sign\?token=\S+/.exec(mail.parsed.text ?? '')?.[0];
    assert.ok(url, mail.parsed.text);
    return url.slice(url.indexOf('/v1/'));
  };
  const pdf = async (envelopeId: string, version = 'signed') => {
    const response = await fetch(`${t.baseUrl}/v1/esign/envelopes/${envelopeId}/document?version=${version}`, {
      headers: { authorization: `Bearer ${acme.apiKey}` },
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/pdf');
    return Buffer.from(await response.arrayBuffer());
  };

  before(async () => {
    // The time-stamp authority runs on 127.0.0.1: allowed as webhooks and feeds allow it in tests.
    [smtp, t] = await Promise.all([startSmtpServer(), startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0', WEBHOOK_ALLOWED_INTERNAL_HOSTS: '127.0.0.1' } })]);
    acme = await t.createOrganization('Acme Hiring');
    globex = await t.createOrganization('Globex');
    await Promise.all([activateLicense(t, acme.apiKey, 'esign.send_offer'), activateLicense(t, acme.apiKey, 'esign.send_agreement')]);
    const created = await t.request('POST', '/v1/integrations/connections', {
      auth: acme.apiKey,
      body: {
        connector: 'smtp',
        settings: { host: 'localhost', port: smtp.port, from_email: 'offers@acme.example', tls_ca: smtp.certificate },
        credentials: {},
      },
    });
    assert.equal(created.status, 201, created.text);
    const tested = await t.request('POST', `/v1/integrations/connections/${created.body.id}/test`, { auth: acme.apiKey });
    assert.equal(tested.body.ok, true, tested.text);
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('a template is checked when saved: unknown placeholders and stray braces are 400 with their codes', async () => {
    const bad = (body: string) => t.request('POST', '/v1/esign/templates', { auth: acme.apiKey, body: { kind: 'offer', name: 'Offer', title: 'Offer', body } });
    const unknown = await bad('Dear {{candidate.password}}');
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.code, 'template_placeholder_unknown');
    assert.equal(unknown.body.error.param, 'body');
    const code = await bad('Dear {{ constructor.constructor("return process")() }}');
    assert.equal(code.body.error.code, 'template_placeholder_unknown');
    const stray = await bad('Dear {{candidate.name}, welcome');
    assert.equal(stray.body.error.code, 'template_syntax_invalid');
    const good = await bad(
      '# Offer of employment\n\nDear {{candidate.name}},\n\nWe offer you the role of {{offer.job_title}} at {{offer.salary}} {{offer.currency}}, bonus {{fields.bonus}}.',
    );
    assert.equal(good.status, 201, good.text);
    assert.match(good.body.id, /^etpl_/);
    const missing = await fire('offer.created', acme.organizationId, { offer_id: 'off_0', candidate: { name: 'Ada', email: 'ada@example.com' } });
    assert.equal(missing.body.outcomes[0].status, 'skipped');
    assert.match(missing.body.outcomes[0].reason, /^template_value_missing/);
  });

  it('offer.created → the link by email; a tampered link is refused; the signer consents and signs; the sealed PDF passes pdfsig and a changed byte fails', async () => {
    // The organization's own certificate (a PKCS#12 made like any CA-issued one would be uploaded).
    const own = selfSignedP12('Acme Hiring Signing', new Date());
    const wrong = await t.request('PUT', '/v1/esign/certificate', {
      auth: acme.apiKey,
      body: { p12_base64: own.p12.toString('base64'), passphrase: 'not it' },
    });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.error.code, 'certificate_invalid');
    const uploaded = await t.request('PUT', '/v1/esign/certificate', {
      auth: acme.apiKey,
      body: { p12_base64: own.p12.toString('base64'), passphrase: own.passphrase },
    });
    assert.equal(uploaded.status, 200, uploaded.text);
    assert.equal(uploaded.body.source, 'uploaded');
    assert.equal(uploaded.body.fingerprint_sha256, own.fingerprintSha256);

    const offer = {
      offer_id: 'off_7',
      candidate: { name: 'Ada Lovelace', email: 'ada@example.com', language: 'es' },
      title: 'Offer: Engineer',
      job_title: 'Engineer',
      salary: '85,000',
      currency: 'EUR',
      values: { 'fields.bonus': '10%' },
    };
    const first = await fire('offer.created', acme.organizationId, offer);
    assert.deepEqual(first.body.handled, ['esign-offer'], first.text);
    const envelopeId: string = first.body.outcomes[0].result.envelope_id;
    const again = await fire('offer.created', acme.organizationId, offer);
    assert.equal(again.body.outcomes[0].result.envelope_id, envelopeId, 'one envelope per offer');
    await waitFor(async () => smtp.received.some((m) => m.envelope.to.includes('ada@example.com')), 'the signing link to Ada');
    const link = linkIn('ada@example.com');
    assert.equal(smtp.received.filter((m) => m.envelope.to.includes('ada@example.com')).length, 1, 'one email per offer');
    assert.equal(eventsOf(t, acme.organizationId, 'offer.sent_for_signature').length, 1);

    const token = new URL(link, t.baseUrl).searchParams.get('token')!;
    const tampered = await t.request('GET', `/v1/sign?token=${token.slice(0, -3)}AAA`);
    assert.equal(tampered.status, 400);
    assert.equal(tampered.headers.get('x-error-code'), 'signing_link_invalid');

    const page = await t.request('GET', link, { headers: { 'user-agent': 'esign-test/1.0' } });
    assert.equal(page.status, 200);
    assert.match(page.text, /<html lang="es"/);
    assert.match(page.text, /Engineer at 85,000 EUR, bonus 10%/);
    assert.match(page.text, /firmar este documento electrónicamente/);

    const noConsent = await post(link, { action: 'sign', typed_name: 'Ada Lovelace' });
    assert.equal(noConsent.status, 400);
    assert.equal(noConsent.headers.get('x-error-code'), 'consent_required');
    const badImage = await post(link, { action: 'sign', typed_name: 'Ada Lovelace', consent: 'yes', signature_image: 'data:image/png;base64,AAAA' });
    assert.equal(badImage.headers.get('x-error-code'), 'signature_image_invalid');

    const signed = await post(link, { action: 'sign', typed_name: 'Ada Lovelace', consent: 'yes', signature_image: DRAWN });
    assert.equal(signed.status, 200, signed.text);
    assert.match(signed.text, /role="status"/);
    const twice = await post(link, { action: 'sign', typed_name: 'Ada Lovelace', consent: 'yes' });
    assert.equal(twice.status, 409);

    const envelope = await t.request('GET', `/v1/esign/envelopes/${envelopeId}`, { auth: acme.apiKey });
    assert.equal(envelope.body.status, 'signed');
    assert.equal(envelope.body.signature_method, 'drawn');
    assert.deepEqual(
      envelope.body.events.map((e: any) => e.type),
      ['created', 'sent', 'viewed', 'consented', 'signed', 'sealed'],
    );
    // The link went out as an action run that succeeded on the SMTP server's acknowledgment.
    const run = await t.request('GET', `/v1/integrations/runs/${envelope.body.email_run_id}`, { auth: acme.apiKey });
    assert.equal(run.status, 200, run.text);
    assert.equal(run.body.action, 'esign.send_offer');
    assert.equal(run.body.status, 'succeeded');
    const [signedEvent] = eventsOf(t, acme.organizationId, 'offer.signed');
    assert.equal(signedEvent?.payload.offer_id, 'off_7');

    const original = await pdf(envelopeId, 'original');
    assert.equal(createHash('sha256').update(original).digest('hex'), envelope.body.document_sha256);
    const sealed = await pdf(envelopeId);
    assert.equal(createHash('sha256').update(sealed).digest('hex'), envelope.body.signed_document_sha256);
    const file = path.join(dir, 'signed.pdf');
    writeFileSync(file, sealed);
    const check = spawnSync('pdfsig', [file], { encoding: 'utf8' });
    assert.equal(check.status, 0, check.stdout + check.stderr);
    assert.match(check.stdout, /Signature Validation: Signature is Valid\./);
    assert.match(check.stdout, /Total document signed/);
    assert.match(check.stdout, /Acme Hiring Signing e-signature/);
    assert.match(check.stdout, /Signature Type: ETSI\.CAdES\.detached/);

    // PAdES-B-B, read by OpenSSL (not by the code that wrote it): the CMS verifies over the byte range, its signed
    // attributes are content-type, message-digest and signing-certificate-v2 (no signing-time: the time is the /M),
    // and signing-certificate-v2 carries the SHA-256 of the uploaded certificate.
    const { cms, signedBytes } = signatureOf(sealed);
    writeFileSync(path.join(dir, 'signature.der'), cms);
    writeFileSync(path.join(dir, 'signed-bytes.bin'), signedBytes);
    const openssl = (args: string[], env: Record<string, string> = {}, input?: Buffer) =>
      spawnSync('openssl', args, { cwd: dir, env: { ...process.env, ...env }, input, maxBuffer: 8 << 20 });
    /** OpenSSL checks the CMS signature over `content` (the certificate chain is not what this checks). */
    const cmsVerify = (content: string) =>
      openssl(['cms', '-verify', '-binary', '-inform', 'DER', '-in', 'signature.der', '-content', content, '-noverify', '-out', '/dev/null']);
    const verified = cmsVerify('signed-bytes.bin');
    assert.equal(verified.status, 0, verified.stderr.toString());
    const printed = openssl(['cms', '-cmsout', '-print', '-inform', 'DER', '-in', 'signature.der']).stdout.toString();
    const attributes = printed.slice(printed.indexOf('signedAttrs:'), printed.indexOf('signatureAlgorithm:', printed.indexOf('signedAttrs:')));
    assert.deepEqual(
      [...attributes.matchAll(/object: (\S+) \(/g)].map((m) => m[1]),
      ['contentType', 'messageDigest', 'id-smime-aa-signingCertificateV2'],
    );
    const certHash = /id-smime-aa-signingCertificateV2[\s\S]*?OCTET STRING\s+\[HEX DUMP\]:([0-9A-F]{64})/.exec(attributes)?.[1];
    const certificatePem = openssl(['pkcs12', '-in', '-', '-nokeys', '-clcerts', '-passin', 'env:P12_PASSPHRASE'], { P12_PASSPHRASE: own.passphrase }, own.p12);
    assert.equal(certificatePem.status, 0, certificatePem.stderr.toString());
    const certificateDer = openssl(['x509', '-outform', 'DER'], {}, certificatePem.stdout).stdout;
    assert.equal(certHash?.toLowerCase(), createHash('sha256').update(certificateDer).digest('hex'));

    // One byte inside the signed range changed (the page's width 595.28 → 595.29: still a well-formed PDF): the digest no longer matches.
    const changed = Buffer.from(sealed);
    const width = changed.indexOf('595.28');
    assert.ok(width > 0 && width < changed.indexOf('/ByteRange'));
    changed[width + 5] = '9'.charCodeAt(0);
    const changedFile = path.join(dir, 'changed.pdf');
    writeFileSync(changedFile, changed);
    const broken = spawnSync('pdfsig', [changedFile], { encoding: 'utf8' });
    assert.match(broken.stdout, /Signature Validation: Digest Mismatch/, broken.stdout);
    assert.doesNotMatch(broken.stdout, /Signature is Valid/);
    writeFileSync(path.join(dir, 'changed-bytes.bin'), signatureOf(changed).signedBytes);
    const refused = cmsVerify('changed-bytes.bin');
    assert.notEqual(refused.status, 0, 'OpenSSL refuses the changed bytes too');

    const text = spawnSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /Audit trail/);
    assert.match(text.stdout, new RegExp(envelope.body.document_sha256));
    assert.match(text.stdout, /esign-test\/1\.0/);
    assert.match(text.stdout, /Consented to sign electronically/);

    await waitFor(async () => smtp.received.filter((m) => m.envelope.to.includes('ada@example.com')).length === 2, 'the signed copy to Ada');
    const copy = smtp.received.filter((m) => m.envelope.to.includes('ada@example.com')).at(-1)!;
    assert.equal(copy.parsed.attachments[0]?.contentType, 'application/pdf');
    assert.ok(copy.parsed.attachments[0]!.content.equals(sealed), 'the signer gets the same sealed PDF');
  });

  it('PAdES-B-T: with a time-stamp authority set the signature carries its RFC 3161 token over the signature value (openssl ts -verify); a TSA that answers garbage is refused when saved, one that is down fails the signing with 503 and nothing is recorded', async () => {
    const tsa = await startTimestampAuthority();
    try {
      const before = await t.request('GET', '/v1/esign/settings', { auth: acme.apiKey });
      assert.equal(before.status, 200, before.text);
      assert.equal(before.body.signature_level, 'PAdES-B-B');
      const garbage = await t.request('PATCH', '/v1/esign/settings', { auth: acme.apiKey, body: { timestamp_authority_url: `${tsa.url}/garbage` } });
      assert.equal(garbage.status, 400, garbage.text);
      assert.equal(garbage.body.error.code, 'timestamp_invalid');
      assert.equal(garbage.body.error.param, 'timestamp_authority_url');
      const notHttp = await t.request('PATCH', '/v1/esign/settings', { auth: acme.apiKey, body: { timestamp_authority_url: 'ftp://tsa.example/' } });
      assert.equal(notHttp.status, 400);
      const set = await t.request('PATCH', '/v1/esign/settings', { auth: acme.apiKey, body: { timestamp_authority_url: `${tsa.url}/tsa` } });
      assert.equal(set.status, 200, set.text);
      assert.equal(set.body.signature_level, 'PAdES-B-T');
      const checkedOnSave = tsa.requests;

      const created = await t.request('POST', '/v1/esign/envelopes', {
        auth: acme.apiKey,
        body: { kind: 'agreement', reference_id: 'nda_bt', title: 'Contractor agreement', signer: { name: 'Mary Jackson', email: 'mary@example.com' } },
      });
      assert.equal(created.status, 201, created.text);
      const link: string = created.body.url.slice(created.body.url.indexOf('/v1/'));
      const signed = await post(link, { action: 'sign', typed_name: 'Mary Jackson', consent: 'yes' });
      assert.equal(signed.status, 200, signed.text);
      assert.equal(tsa.requests, checkedOnSave + 1, 'one time-stamp per signature');
      const sealed = await pdf(created.body.id);
      writeFileSync(path.join(dir, 'bt.pdf'), sealed);
      const check = spawnSync('pdfsig', [path.join(dir, 'bt.pdf')], { encoding: 'utf8' });
      assert.equal(check.status, 0, check.stdout + check.stderr);
      assert.match(check.stdout, /Signature Validation: Signature is Valid\./);
      assert.match(check.stdout, /Signature Type: ETSI\.CAdES\.detached/);

      // The unsigned attribute id-aa-signatureTimeStampToken holds a token over SHA-256(signature value), which OpenSSL verifies against the TSA's root.
      const { cms } = signatureOf(sealed);
      writeFileSync(path.join(dir, 'bt-signature.der'), cms);
      const lines = asn1parse('bt-signature.der', dir);
      const at = lines.findIndex((l) => /OBJECT\s+:id-smime-aa-timeStampToken/.test(l.text));
      assert.ok(at > 0, 'a signature time-stamp attribute');
      const lastBefore = (end: number, pattern: RegExp) => lines.slice(0, end).reduce((found, l, i) => (pattern.test(l.text) ? i : found), -1);
      const unsigned = lastBefore(at, /cont \[ 1 \]/);
      const value = lines[lastBefore(unsigned, /prim: OCTET STRING/)]!;
      writeFileSync(path.join(dir, 'bt-signature-value.bin'), cms.subarray(value.offset + value.header, value.offset + value.header + value.length));
      const set1 = lines[at + 1]!;
      assert.match(set1.text, /cons: SET/);
      writeFileSync(path.join(dir, 'bt-token.der'), cms.subarray(set1.offset + set1.header, set1.offset + set1.header + set1.length));
      const verified = spawnSync('openssl', ['ts', '-verify', '-in', 'bt-token.der', '-token_in', '-data', 'bt-signature-value.bin', '-CAfile', tsa.caFile], {
        cwd: dir,
        encoding: 'utf8',
      });
      assert.equal(verified.status, 0, verified.stdout + verified.stderr);
      assert.match(verified.stdout, /Verification: OK/);
      // The same token does not verify for other data: the check above can fail.
      writeFileSync(path.join(dir, 'other.bin'), Buffer.from('another signature value'));
      const other = spawnSync('openssl', ['ts', '-verify', '-in', 'bt-token.der', '-token_in', '-data', 'other.bin', '-CAfile', tsa.caFile], {
        cwd: dir,
        encoding: 'utf8',
      });
      assert.notEqual(other.status, 0);

      // The TSA down: the signer gets the page again saying to sign later (503 timestamp_unavailable) and the envelope stays open.
      await tsa.close();
      const second = await t.request('POST', '/v1/esign/envelopes', {
        auth: acme.apiKey,
        body: { kind: 'agreement', reference_id: 'nda_bt_down', signer: { name: 'Dorothy Vaughan', email: 'dorothy@example.com' } },
      });
      const secondLink: string = second.body.url.slice(second.body.url.indexOf('/v1/'));
      const down = await post(secondLink, { action: 'sign', typed_name: 'Dorothy Vaughan', consent: 'yes' });
      assert.equal(down.status, 503, down.text);
      assert.equal(down.headers.get('x-error-code'), 'timestamp_unavailable');
      assert.match(down.text, /time-stamp service did not answer/);
      assert.match(down.text, /name="typed_name"/, 'the form again, to sign later');
      const still = await t.request('GET', `/v1/esign/envelopes/${second.body.id}`, { auth: acme.apiKey });
      assert.equal(still.body.status, 'sent');
    } finally {
      await tsa.close();
      const cleared = await t.request('PATCH', '/v1/esign/settings', { auth: acme.apiKey, body: { timestamp_authority_url: null } });
      assert.equal(cleared.body.signature_level, 'PAdES-B-B');
    }
  });

  it('an agreement by API: the signer declines with a reason and agreement.declined is published; the organization cannot void it afterwards', async () => {
    const created = await t.request('POST', '/v1/esign/envelopes', {
      auth: acme.apiKey,
      body: { kind: 'agreement', reference_id: 'nda_1', title: 'Mutual NDA', signer: { name: 'Grace Hopper', email: 'grace@example.com' } },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.status, 'sent');
    await waitFor(async () => smtp.received.some((m) => m.envelope.to.includes('grace@example.com')), 'the signing link to Grace');
    const declined = await post(linkIn('grace@example.com'), { action: 'decline', reason: 'Terms not agreed' });
    assert.equal(declined.status, 200);
    const [event] = eventsOf(t, acme.organizationId, 'agreement.declined');
    assert.equal(event?.payload.reason, 'Terms not agreed');
    assert.equal(event?.payload.agreement_id, 'nda_1');
    const voided = await t.request('POST', `/v1/esign/envelopes/${created.body.id}/void`, { auth: acme.apiKey });
    assert.equal(voided.status, 409);
    assert.equal(voided.body.error.code, 'envelope_not_open');
    const noPdf = await t.request('GET', `/v1/esign/envelopes/${created.body.id}/document`, { auth: acme.apiKey });
    assert.equal(noPdf.status, 409);
  });

  it('expiry on the test clock: the sweep expires the envelope once, offer.expired is published, the link no longer signs', async () => {
    const created = await t.request('POST', '/v1/esign/envelopes', {
      auth: acme.apiKey,
      body: {
        kind: 'offer',
        reference_id: 'off_9',
        signer: { name: 'Alan Turing', email: 'alan@example.com' },
        values: { 'offer.job_title': 'Analyst', 'offer.salary': '1', 'offer.currency': 'GBP', 'offer.start_date': '2027-01-04', 'fields.bonus': '0' },
        expires_in_days: 3,
      },
    });
    assert.equal(created.status, 201, created.text);
    const later = new Date(Date.parse(created.body.expires_at) + 60_000).toISOString();
    const sweep = await t.request('POST', '/v1/esign/operator/expire', { auth: t.operatorKey, body: { at: later } });
    assert.equal(sweep.status, 200, sweep.text);
    assert.ok(sweep.body.expired >= 1);
    const again = await t.request('POST', '/v1/esign/operator/expire', { auth: t.operatorKey, body: { at: later } });
    assert.equal(again.body.expired, 0);
    assert.equal(eventsOf(t, acme.organizationId, 'offer.expired').filter((e) => e.payload.envelope_id === created.body.id).length, 1);
    await waitFor(async () => smtp.received.some((m) => m.envelope.to.includes('alan@example.com')), 'the signing link to Alan');
    const refused = await post(linkIn('alan@example.com'), { action: 'sign', typed_name: 'Alan Turing', consent: 'yes' });
    assert.equal(refused.status, 409);
    assert.equal((await t.request('GET', `/v1/esign/envelopes/${created.body.id}`, { auth: acme.apiKey })).body.status, 'expired');
  });

  it('the signer’s page in Chromium at 390 px: axe finds no serious violation, nothing is wider than the screen; a drawn signature and the keyboard sign it', async function () {
    const missing = chromiumMissing();
    if (missing) return skipBecause(this, missing);
    const created = await t.request('POST', '/v1/esign/envelopes', {
      auth: acme.apiKey,
      body: {
        kind: 'agreement',
        reference_id: 'nda_phone',
        title: 'Vertraulichkeit',
        signer: { name: 'Lise Meitner', email: 'lise@example.com', language: 'de' },
      },
    });
    assert.equal(created.status, 201, created.text);
    const browser = await launchChromium();
    try {
      // Axe is injected as a script, which the page's own CSP refuses.
      const context = await browser.newContext({ bypassCSP: true, viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await page.goto(created.body.url);
      await page.addScriptTag({ content: readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8') });
      const result = await page.evaluate(async () => {
        const w = globalThis as any;
        const report = await w.axe.run(w.document, { resultTypes: ['violations'] });
        return {
          violations: report.violations.filter((v: any) => v.impact === 'serious' || v.impact === 'critical').map((v: any) => `${v.impact} ${v.id}`),
          wide: w.document.documentElement.scrollWidth > w.document.documentElement.clientWidth,
        };
      });
      assert.deepEqual(result.violations, []);
      assert.equal(result.wide, false);
      const pad = page.locator('#pad');
      await pad.scrollIntoViewIfNeeded();
      const box = (await pad.boundingBox())!;
      await page.mouse.move(box.x + 20, box.y + 20);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width - 20, box.y + box.height - 20, { steps: 8 });
      await page.mouse.up();
      await page.getByRole('checkbox').focus();
      await page.keyboard.press('Space');
      await page.getByRole('button', { name: 'Dokument unterschreiben' }).click();
      await page.getByRole('status').waitFor();
      assert.match((await page.getByRole('status').textContent()) ?? '', /unterschrieben/);
      await context.close();
    } finally {
      await browser.close();
    }
    const envelope = await t.request('GET', `/v1/esign/envelopes/${created.body.id}`, { auth: acme.apiKey });
    assert.equal(envelope.body.status, 'signed');
    assert.equal(envelope.body.signature_method, 'drawn');
  });

  it('the organization voids a sent envelope: its link shows it withdrawn and no longer signs', async () => {
    const created = await t.request('POST', '/v1/esign/envelopes', {
      auth: acme.apiKey,
      body: { kind: 'agreement', reference_id: 'nda_void', signer: { name: 'Emmy Noether', email: 'emmy@example.com' } },
    });
    assert.equal(created.status, 201, created.text);
    const voided = await t.request('POST', `/v1/esign/envelopes/${created.body.id}/void`, { auth: acme.apiKey });
    assert.equal(voided.status, 200, voided.text);
    assert.equal(voided.body.status, 'voided');
    const link: string = created.body.url.slice(created.body.url.indexOf('/v1/'));
    const page = await t.request('GET', link);
    assert.match(page.text, /withdrew this document/);
    assert.doesNotMatch(page.text, /name="typed_name"/);
    const refused = await post(link, { action: 'sign', typed_name: 'Emmy Noether', consent: 'yes' });
    assert.equal(refused.status, 409);
    assert.equal(refused.headers.get('x-error-code'), 'envelope_not_open');
  });

  it('needs the license; another organization’s envelope is 404', async () => {
    const unlicensed = await t.request('POST', '/v1/esign/envelopes', {
      auth: globex.apiKey,
      body: { kind: 'agreement', reference_id: 'nda_2', signer: { name: 'Ada', email: 'ada@example.com' } },
    });
    assert.equal(unlicensed.status, 403);
    assert.equal(unlicensed.body.error.code, 'license_required');
    const list = await t.request('GET', '/v1/esign/templates', { auth: globex.apiKey });
    assert.deepEqual(list.body.data, []);
    const none = await t.request('GET', '/v1/esign/envelopes', { auth: globex.apiKey });
    assert.deepEqual(none.body.data, []);
    const offers = await t.request('GET', '/v1/esign/envelopes?reference_id=off_7', { auth: acme.apiKey });
    assert.deepEqual(
      offers.body.data.map((e: any) => [e.reference_id, e.status]),
      [['off_7', 'signed']],
    );
  });
});
