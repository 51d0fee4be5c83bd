/**
 * The e-signature template language, the drawn-signature check, signing certificates, and the
 * checks on RFC 3161 answers (against OpenSSL's own TSA): no host.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { isDomainError } from '../../src/kernel/errors';
import { inspectP12, selfSignedP12 } from '../../src/features/esign/documents/certificates';
import { signatureImage } from '../../src/features/esign/domain/signature-image';
import { signSigningLink, verifySigningLink } from '../../src/features/esign/domain/signing-links';
import { checkTemplate, documentBlocks, fillTemplate } from '../../src/features/esign/domain/template-language';
import { TimestampError, timestampRequest, timestampToken } from '../../src/features/esign/documents/rfc3161';
import { startTimestampAuthority, type TestTimestampAuthority } from '../helpers/timestamp-authority';

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    assert.ok(isDomainError(error), String(error));
    return error.code;
  }
  assert.fail('expected a DomainError');
};

/** A PNG with the given header and pixel rows (CRCs left zero: the check does not read them). */
function png(width: number, height: number, rows: Buffer, colorType = 6): string {
  const chunk = (type: string, data: Buffer) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, 'latin1');
    data.copy(out, 8);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, colorType, 0, 0, 0], 8);
  const bytes = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${bytes.toString('base64')}`;
}

describe('esign: the placeholder language', () => {
  it('knows a fixed list and fields.<key>; anything else, and stray braces, are refused with their codes', () => {
    assert.deepEqual(checkTemplate('Dear {{ candidate.name }}, {{offer.salary}} {{fields.bonus_2}} {{candidate.name}}'), [
      'candidate.name',
      'offer.salary',
      'fields.bonus_2',
    ]);
    assert.equal(
      codeOf(() => checkTemplate('{{process.env.SECRET_KEY}}')),
      'template_placeholder_unknown',
    );
    assert.equal(
      codeOf(() => checkTemplate('{{fields.Bonus}}')),
      'template_placeholder_unknown',
    );
    assert.equal(
      codeOf(() => checkTemplate('{{candidate.name | upper}}')),
      'template_placeholder_unknown',
    );
    assert.equal(
      codeOf(() => checkTemplate('{{candidate.name}')),
      'template_syntax_invalid',
    );
    assert.equal(
      codeOf(() => checkTemplate('{{ {{candidate.name}} }}')),
      'template_syntax_invalid',
    );
    assert.equal(
      codeOf(() => checkTemplate('x'.repeat(20_001))),
      'template_too_long',
    );
  });

  it('fills values as plain text (a value holding braces is printed, not read again) and names what is missing', () => {
    assert.equal(fillTemplate('Hi {{candidate.name}}!', { 'candidate.name': '{{today}}' }), 'Hi {{today}}!');
    assert.equal(
      codeOf(() => fillTemplate('{{offer.salary}}', {})),
      'template_value_missing',
    );
  });

  it('cuts the text into headings and paragraphs', () => {
    assert.deepEqual(documentBlocks('# Offer\nDear Ada,\n\nWelcome.\r\n\r\n\n# Terms\nNone'), [
      { kind: 'heading', text: 'Offer' },
      { kind: 'paragraph', text: 'Dear Ada,' },
      { kind: 'paragraph', text: 'Welcome.' },
      { kind: 'heading', text: 'Terms' },
      { kind: 'paragraph', text: 'None' },
    ]);
  });
});

describe('esign: drawn signatures and signing links', () => {
  it('takes an 8-bit RGBA PNG whose pixels match its size, and refuses the rest', () => {
    const rows = Buffer.alloc(2 * (1 + 3 * 4));
    assert.ok(signatureImage(png(3, 2, rows)).length > 0);
    assert.equal(
      codeOf(() => signatureImage('data:image/svg+xml;base64,PHN2Zz4=')),
      'signature_image_invalid',
    );
    assert.equal(
      codeOf(() => signatureImage(png(3, 2, rows.subarray(1)))),
      'signature_image_invalid',
    );
    assert.equal(
      codeOf(() => signatureImage(png(5000, 1, Buffer.alloc(1 + 5000 * 4)))),
      'signature_image_invalid',
    );
    // A "zip bomb": 600 rows promised small, inflating far past them.
    assert.equal(
      codeOf(() => signatureImage(png(10, 10, Buffer.alloc(1_000_000)))),
      'signature_image_invalid',
    );
    assert.equal(
      codeOf(() => signatureImage(png(3, 2, rows, 3))),
      'signature_image_invalid',
    );
  });

  it('a link verifies under its key until it expires; a changed one is signing_link_invalid', () => {
    const key = Buffer.alloc(32, 7);
    const now = new Date('2026-11-28T00:00:00Z');
    const token = signSigningLink(key, { organizationId: 'org_1', envelopeId: 'env_1', expiresAt: new Date('2026-12-01T00:00:00Z') });
    assert.equal(verifySigningLink(key, token, now).envelopeId, 'env_1');
    assert.equal(
      codeOf(() => verifySigningLink(Buffer.alloc(32, 8), token, now)),
      'signing_link_invalid',
    );
    assert.equal(
      codeOf(() => verifySigningLink(key, `${token}x`, now)),
      'signing_link_invalid',
    );
    assert.equal(
      codeOf(() => verifySigningLink(key, token, new Date('2026-12-02T00:00:00Z'))),
      'signing_link_expired',
    );
  });
});

describe('esign: signing certificates', function () {
  // One RSA-2048 key and a PKCS#12 made in JavaScript (node-forge): a few seconds on a busy machine.
  this.timeout(30_000);
  it('a PKCS#12 opens with its passphrase and names its certificate; a wrong passphrase, garbage or an expired certificate are 400 codes', () => {
    const now = new Date('2026-11-28T00:00:00Z');
    const made = selfSignedP12('Acme Hiring', now);
    const details = inspectP12(made.p12, made.passphrase, now);
    assert.equal(details.fingerprintSha256, made.fingerprintSha256);
    assert.match(details.subject, /CN=Acme Hiring e-signature \(self-signed\)/);
    assert.equal(
      codeOf(() => inspectP12(made.p12, 'wrong', now)),
      'certificate_invalid',
    );
    assert.equal(
      codeOf(() => inspectP12(Buffer.from('not a p12'), '', now)),
      'certificate_invalid',
    );
    assert.equal(
      codeOf(() => inspectP12(made.p12, made.passphrase, new Date('2031-01-01T00:00:00Z'))),
      'certificate_expired',
    );
  });
});

describe('esign: RFC 3161 answers (OpenSSL’s TSA, `openssl ts -reply`)', function () {
  // Two RSA keys for the throwaway TSA, made by openssl.
  this.timeout(60_000);
  let tsa: TestTimestampAuthority;
  const ask = async (query: Buffer) => {
    const response = await fetch(`${tsa.url}/tsa`, { method: 'POST', headers: { 'content-type': 'application/timestamp-query' }, body: query });
    assert.equal(response.status, 200);
    return Buffer.from(await response.arrayBuffer());
  };
  const failure = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      assert.ok(error instanceof TimestampError, String(error));
      return error.code;
    }
    assert.fail('expected a TimestampError');
  };
  before(async () => {
    tsa = await startTimestampAuthority();
  });
  after(async () => tsa?.close());

  it('takes a granted token for our digest and nonce, with its time; the same answer for another digest or nonce (a replay) is timestamp_invalid', async () => {
    const digest = createHash('sha256').update('a signature value').digest();
    const request = timestampRequest(digest);
    const answer = await ask(request.der);
    const { token, time } = timestampToken(answer, digest, request);
    assert.equal(token[0], 0x30);
    assert.ok(Math.abs(time.getTime() - Date.now()) < 120_000, time.toISOString());
    assert.equal(
      failure(() => timestampToken(answer, createHash('sha256').update('another').digest(), request)),
      'timestamp_invalid',
    );
    assert.equal(
      failure(() => timestampToken(answer, digest, timestampRequest(digest))),
      'timestamp_invalid',
    );
    assert.equal(
      failure(() => timestampToken(answer.subarray(0, answer.length - 10), digest, request)),
      'timestamp_invalid',
    );
  });

  it('a refusal (a digest this TSA does not accept: SHA-1) is timestamp_refused', async () => {
    const query = execFileSync('openssl', ['ts', '-query', '-digest', 'a'.repeat(40), '-sha1', '-no_nonce'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const answer = await ask(query);
    assert.equal(
      failure(() => timestampToken(answer, Buffer.alloc(32), timestampRequest(Buffer.alloc(32)))),
      'timestamp_refused',
    );
  });
});
