/**
 * Documents with human review through the API: a candidate's license scan is uploaded for a
 * requirement (its type read from its bytes, its content encrypted on disk), a reviewer
 * approves it with the expiry printed on it and the application's check reads `met`
 * (source document_review) and compliance follows its expiry, reminding the email the
 * candidate gave with the application; one approved with a past expiry reads `expired`; a wrong type,
 * an unknown requirement and an oversized file are refused with nothing written; decisions
 * are audited; another organization sees nothing; erasure deletes the files.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ADA, enableProfileApply, runConnect, waitFor } from '../helpers/profile-flow';
import { startTestHost, type TestHost } from '../helpers/test-host';

const ORIGIN = 'https://careers.documents.example';
const DAY = 86_400_000;
const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\nRN LICENSE 12345 STATE BOARD\n%%EOF\n');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR food handler card')]);

describe('credential documents with human review', function () {
  this.timeout(60_000);
  let t: TestHost;
  let dir: string;
  let acme: { organizationId: string; apiKey: string };
  let globex: { organizationId: string; apiKey: string };
  let applicationId: string;
  const as = (method: string, p: string, body?: unknown, auth = acme.apiKey) => t.request(method, p, { auth, body });
  const upload = (requirement: string, content: Buffer, fileName = 'scan.pdf', auth = acme.apiKey) =>
    as(
      'POST',
      '/v1/credential-documents',
      { application_id: applicationId, requirement, file_name: fileName, content_base64: content.toString('base64') },
      auth,
    );
  const outcome = async (key: string) => {
    const check = await as('GET', `/v1/credential-checks/applications/${applicationId}`);
    assert.equal(check.status, 200, check.text);
    return check.body.requirements.find((r: { requirement: string }) => r.requirement === key);
  };

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'credential-documents-'));
    t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0', CREDENTIAL_DOCUMENTS_DIR: dir, CREDENTIAL_DOCUMENT_MAX_BYTES: '4096' } });
    acme = await t.createOrganization('Acme Care');
    globex = await t.createOrganization('Globex');
    const requirements = [
      { key: 'rn_license', label: 'RN license', credential_type: 'License', issuers: ['did:web:rn.board.example'], min_validity_days: 30 },
      { key: 'food_handler', label: 'Food handler card', credential_type: 'FoodHandlerCard' },
    ];
    const listing = await as('POST', '/v1/listings', { title: 'Night nurse', requirements });
    assert.equal(listing.status, 201, listing.text);
    await enableProfileApply(t, acme.apiKey, [ORIGIN]);
    const run = await runConnect(t, { organizationId: acme.organizationId, listingId: listing.body.id, origin: ORIGIN, button: `Authorize as ${ADA.name}` });
    assert.equal(run.result?.message.type, 'profile-apply:authorized');
    const applied = await as('POST', `/v1/opportunities/listings/${listing.body.id}/applications/profile`, {
      profile_user_id: ADA.id,
      contact: { email: 'Ada@Lovelace.example' },
    });
    assert.equal(applied.status, 201, applied.text);
    applicationId = applied.body.application_id;
  });
  after(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('upload → review → the requirement is met by the reviewed document until its expiry; the file is encrypted at rest', async () => {
    assert.equal((await outcome('rn_license')).status, 'missing');
    const uploaded = await upload('rn_license', PDF, 'rn-license.png');
    assert.equal(uploaded.status, 201, uploaded.text);
    assert.equal(uploaded.body.status, 'pending_review');
    assert.equal(uploaded.body.media_type, 'application/pdf', 'read from the bytes, not the name');
    assert.equal(uploaded.body.credential_type, 'License');
    const id = uploaded.body.id;
    assert.equal((await outcome('rn_license')).status, 'missing', 'awaiting review proves nothing');
    const onDisk = readFileSync(path.join(dir, `${id}.blob`));
    assert.ok(!onDisk.includes(Buffer.from('RN LICENSE')), 'the stored file is ciphertext');

    const download = await t.request('GET', `/v1/credential-documents/${id}/content`, { auth: acme.apiKey });
    assert.equal(download.status, 200);
    assert.equal(download.headers.get('content-type'), 'application/pdf');
    assert.equal(download.text, PDF.toString(), 'the decrypted file, byte for byte (this one is ASCII)');

    const expiresAt = new Date(Date.now() + 365 * DAY).toISOString();
    const approved = await as('POST', `/v1/credential-documents/${id}/approve`, { expires_at: expiresAt });
    assert.equal(approved.status, 200, approved.text);
    assert.deepEqual([approved.body.status, approved.body.expires_at], ['approved', expiresAt]);
    const met = await outcome('rn_license');
    assert.deepEqual(
      [met.status, met.reason, met.evidence.source, met.evidence.credential_id, met.evidence.valid_until],
      ['met', null, 'document_review', id, expiresAt],
    );

    // Its expiry is tracked from now on, and the reminders before it go to the email given with the application.
    const held = await t.database.db('hi_held_credentials').where({ source_id: id }).first();
    assert.deepEqual([held?.holder_email, held?.holder_name], ['ada@lovelace.example', ADA.name]);

    const again = await as('POST', `/v1/credential-documents/${id}/reject`, { reason: 'changed my mind' });
    assert.deepEqual([again.status, again.body.error.code], [409, 'document_already_reviewed']);
    const wanted = ['uploadCredentialDocument', 'getCredentialDocumentContent', 'approveCredentialDocument', 'rejectCredentialDocument'];
    await waitFor(async () => {
      const audit = await as('GET', '/v1/audit_events?limit=100');
      const actions = new Set(audit.body.data.map((e: { action: string }) => e.action));
      return wanted.every((a) => actions.has(a)) || undefined;
    }, 'the upload, the download and both decisions (the refused one too) in the audit trail');
  });

  it('approved with an expiry already past reads expired; a rejection keeps its reason and meets nothing', async () => {
    const card = await upload('food_handler', PNG, 'card.png');
    assert.equal(card.body.media_type, 'image/png');
    const past = await as('POST', `/v1/credential-documents/${card.body.id}/approve`, { expires_at: new Date(Date.now() - DAY).toISOString() });
    assert.equal(past.status, 200, past.text);
    const expired = await outcome('food_handler');
    assert.deepEqual([expired.status, expired.reason, expired.evidence.source], ['expired', 'credential_expired', 'document_review']);

    const blurry = await upload('food_handler', PNG, 'card2.png');
    const rejected = await as('POST', `/v1/credential-documents/${blurry.body.id}/reject`, { reason: 'Unreadable' });
    assert.deepEqual([rejected.status, rejected.body.status, rejected.body.rejection_reason], [200, 'rejected', 'Unreadable']);
    assert.equal((await outcome('food_handler')).status, 'expired');
    const listed = await as('GET', `/v1/credential-documents?application_id=${applicationId}`);
    assert.deepEqual(
      listed.body.data.map((d: { status: string }) => d.status),
      ['approved', 'approved', 'rejected'],
    );
  });

  it('a wrong type, an unknown requirement, a bad date or an oversized file is a 4xx and nothing is written', async () => {
    const before = readdirSync(dir).length;
    const script = await upload('rn_license', Buffer.from('#!/bin/sh\nrm -rf /\n'), 'license.pdf');
    assert.deepEqual([script.status, script.body.error.code], [400, 'unsupported_document_type']);
    const unknown = await upload('no_such_requirement', PDF);
    assert.deepEqual([unknown.status, unknown.body.error.code], [400, 'unknown_requirement']);
    const big = await upload('rn_license', Buffer.concat([PDF, Buffer.alloc(5000)]));
    assert.equal(big.status, 413, big.text);
    const traversal = await upload('rn_license', PDF, '../../etc/passwd');
    assert.equal(traversal.status, 400);
    const someId = (await as('GET', `/v1/credential-documents?application_id=${applicationId}`)).body.data[2].id;
    assert.equal((await as('POST', `/v1/credential-documents/${someId}/approve`, { expires_at: 'next year' })).status, 400);
    assert.equal(readdirSync(dir).length, before);
    assert.equal((await as('GET', `/v1/credential-documents?application_id=${applicationId}`)).body.data.length, 3);
  });

  it("another organization's documents and applications are not found; erasure deletes the files", async () => {
    const [doc] = (await as('GET', `/v1/credential-documents?application_id=${applicationId}`)).body.data;
    for (const [method, p, body] of [
      ['GET', `/v1/credential-documents/${doc.id}`],
      ['GET', `/v1/credential-documents/${doc.id}/content`],
      ['POST', `/v1/credential-documents/${doc.id}/approve`, { expires_at: new Date().toISOString() }],
      ['POST', `/v1/credential-documents/${doc.id}/reject`, { reason: 'x' }],
      ['GET', `/v1/credential-documents?application_id=${applicationId}`],
    ] as const) {
      assert.equal((await as(method, p, body, globex.apiKey)).status, 404, `${method} ${p}`);
    }
    assert.equal((await upload('rn_license', PDF, 'x.pdf', globex.apiKey)).status, 404);

    const started = await as('POST', `/v1/candidates/${ADA.id}/erasure`, {});
    assert.equal(started.status, 202, started.text);
    await waitFor(async () => {
      const read = await as('GET', `/v1/candidates/${ADA.id}/erasures/${started.body.id}`);
      return read.body.status === 'succeeded' ? read.body : undefined;
    }, 'the erasure to succeed');
    assert.deepEqual(readdirSync(dir), []);
    assert.equal((await as('GET', `/v1/credential-documents/${doc.id}`)).status, 404);
  });
});
