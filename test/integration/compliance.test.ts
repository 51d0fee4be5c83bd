/**
 * Compliance (issue 25): every profile application to a listing with requirements is
 * checked on its own once the organization holds a verification action, and the result
 * travels with the application (the applications API, the host pipeline,
 * application.submitted); approved documents become held credentials whose expiry is
 * tracked on the test clock (credential.expiring / credential.expired once each, a
 * reminder email) and GET /v1/compliance says who is out of compliance, as JSON and CSV.
 */
import { strict as assert } from 'node:assert';
import { ADA, enableProfileApply, runConnect, waitFor } from '../helpers/profile-flow';
import { activateLicense } from '../helpers/hooks';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { didKeyIssuer, LocalIssuerServer, openBadge, signDataIntegrity, signVcJwt } from '../helpers/credential-issuer';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server';
import { SignedLinks } from '../../src/features/messages/domain/signed-links';
import { deriveKey } from '../../src/platform/security/key-derivation';

const ORIGIN = 'https://careers.compliance.example';
const AWS = 'AWS Certified Solutions Architect – Professional';
const DAY = 86_400_000;
const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\nRN LICENSE 12345\n%%EOF\n');

describe('compliance: automatic checks and credentials over time', function () {
  this.timeout(60_000);
  let t: TestHost;
  let acme: { organizationId: string; apiKey: string };
  let globex: { organizationId: string; apiKey: string };
  let listingId: string;
  let applicationId: string;
  let smtp: TestSmtpServer;
  const as = (method: string, p: string, body?: unknown, auth = acme.apiKey) => t.request(method, p, { auth, body });

  before(async () => {
    [t, smtp] = await Promise.all([startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0', CREDENTIAL_DOCUMENT_MAX_BYTES: '4096' } }), startSmtpServer()]);
    acme = await t.createOrganization('Acme Care');
    globex = await t.createOrganization('Globex');
    const requirements = [
      { key: 'aws', label: 'AWS architect certification', credential_type: AWS, verified_source_required: false },
      { key: 'rn_license', label: 'RN license', credential_type: 'License', min_validity_days: 30 },
    ];
    const listing = await as('POST', '/v1/listings', { title: 'Night nurse', requirements });
    assert.equal(listing.status, 201, listing.text);
    listingId = listing.body.id;
    await enableProfileApply(t, acme.apiKey, [ORIGIN]);
    await activateLicense(t, acme.apiKey, 'background_checks.compliance_tracking');
    const run = await runConnect(t, { organizationId: acme.organizationId, listingId, origin: ORIGIN, button: `Authorize as ${ADA.name}` });
    assert.equal(run.result?.message.type, 'profile-apply:authorized');
    // In Spanish: the reminders about her reviewed documents are written in the language she applied in.
    const applied = await as('POST', `/v1/opportunities/listings/${listingId}/applications/profile`, {
      profile_user_id: ADA.id,
      contact: { email: 'ada@example.com' },
      language: 'es',
    });
    assert.equal(applied.status, 201, applied.text);
    applicationId = applied.body.application_id;
  });
  after(async () => {
    await t?.close();
    // After the host: its pooled SMTP connections are gone, so the server closes at once.
    await smtp?.close();
  });

  it('an application is checked automatically: in the applications API, the host pipeline and application.submitted', async () => {
    const expected = [
      ['aws', 'met', null, 'self_reported'],
      ['rn_license', 'missing', 'no_matching_credential', undefined],
    ];
    const shape = (check: { status: string; requirements: any[] }) => [
      check.status,
      check.requirements.map((r) => [r.requirement, r.status, r.reason, r.evidence?.source]),
    ];
    const read = await as('GET', `/v1/opportunities/applications/${applicationId}`);
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(shape(read.body.credential_check), ['not_met', expected]);
    const listed = await as('GET', `/v1/opportunities/listings/${listingId}/applications`);
    assert.deepEqual(shape(listed.body.data[0].credential_check), ['not_met', expected]);

    const entry = await waitFor(async () => (await t.host.pipeline.listForOrganization(acme.organizationId))[0], 'the pipeline delivery');
    assert.deepEqual(shape(entry.application.credentialCheck!), ['not_met', expected]);
    const submitted = await waitFor(async () => (await as('GET', '/v1/events?type=application.submitted')).body.data[0], 'application.submitted');
    assert.deepEqual(shape(submitted.data.credential_check), ['not_met', expected]);

    assert.equal((await as('GET', `/v1/opportunities/applications/${applicationId}`, undefined, globex.apiKey)).status, 404);
  });

  it('an approved document is tracked: credential.expiring at each threshold and credential.expired once each, on the test clock', async () => {
    const uploaded = await as('POST', '/v1/credential-documents', {
      application_id: applicationId,
      requirement: 'rn_license',
      file_name: 'rn.pdf',
      content_base64: PDF.toString('base64'),
    });
    assert.equal(uploaded.status, 201, uploaded.text);
    const t0 = Date.now();
    const expiresAt = new Date(t0 + 40 * DAY).toISOString();
    const approved = await as('POST', `/v1/credential-documents/${uploaded.body.id}/approve`, { expires_at: expiresAt });
    assert.equal(approved.status, 200, approved.text);

    const sweep = async (days: number) => {
      const ran = await t.request('POST', '/v1/compliance/operator/sweep', { auth: t.operatorKey, body: { at: new Date(t0 + days * DAY).toISOString() } });
      assert.equal(ran.status, 200, ran.text);
      return [ran.body.expiring, ran.body.expired];
    };
    assert.deepEqual(await sweep(5), [0, 0], '35 days left: nothing yet');
    assert.deepEqual(await sweep(11), [1, 0], '29 days left: the 30-day notice');
    assert.deepEqual(await sweep(12), [0, 0], 'once');
    assert.deepEqual(await sweep(34), [1, 0], '6 days left: the 7-day notice');
    assert.deepEqual(await sweep(41), [0, 1], 'expired');
    assert.deepEqual(await sweep(50), [0, 0], 'once');
    // The reminders went to the email and in the language given with the application.
    const reminders = (await t.database.db('hi_connector_deliveries').where({ organization_id: acme.organizationId, connector: 'email' }))
      .map((m) => (typeof m.request === 'string' ? JSON.parse(m.request) : m.request))
      .filter((m) => m.to.email === 'ada@example.com');
    assert.deepEqual(
      reminders.map((m) => m.subject),
      [`Tu License vence el ${expiresAt.slice(0, 10)}`, `Tu License vence el ${expiresAt.slice(0, 10)}`],
    );
    assert.match(reminders[1].text, /^Hola, Ada Lovelace:\n[\s\S]*dentro de 6 días\./);

    const events = (await as('GET', '/v1/events?type=credential.expiring,credential.expired&limit=10')).body.data;
    assert.deepEqual(events.map((e: any) => [e.type, e.data.days_before]).reverse(), [
      ['credential.expiring', 30],
      ['credential.expiring', 7],
      ['credential.expired', undefined],
    ]);
    assert.deepEqual(
      [events[0].data.profile_user_id, events[0].data.requirement, events[0].data.source, events[0].data.source_id, events[0].data.expires_at],
      [ADA.id, 'rn_license', 'document_review', uploaded.body.id, expiresAt],
    );
    assert.equal((await t.request('POST', '/v1/compliance/operator/sweep', { auth: acme.apiKey, body: {} })).status, 403);
  });

  it('GET /v1/compliance: who holds what and whether it is current, filtered, paged, as JSON and as CSV; the reminder schedule', async () => {
    // A second credential, already expired: the AWS certificate's scan approved with a past date.
    const uploaded = await as('POST', '/v1/credential-documents', {
      application_id: applicationId,
      requirement: 'aws',
      file_name: 'aws.pdf',
      content_base64: PDF.toString('base64'),
    });
    await as('POST', `/v1/credential-documents/${uploaded.body.id}/approve`, { expires_at: new Date(Date.now() - DAY).toISOString() });

    const all = await as('GET', '/v1/compliance');
    assert.equal(all.status, 200, all.text);
    assert.deepEqual(all.body.data.map((r: any) => [r.requirement, r.status]).sort(), [
      ['aws', 'expired'],
      ['rn_license', 'compliant'],
    ]);
    const expired = await as('GET', '/v1/compliance?status=expired');
    assert.deepEqual(
      expired.body.data.map((r: any) => [r.requirement, r.profile_user_id, r.listing_id]),
      [['aws', ADA.id, listingId]],
    );
    assert.equal((await as('GET', '/v1/compliance?requirement=rn_license')).body.data.length, 1);
    const first = await as('GET', '/v1/compliance?limit=1');
    assert.equal(first.body.has_more, true);
    const second = await as('GET', `/v1/compliance?limit=1&starting_after=${first.body.data[0].id}`);
    assert.deepEqual([second.body.data.length, second.body.has_more], [1, false]);
    assert.notEqual(second.body.data[0].id, first.body.data[0].id);

    const csv = await t.request('GET', '/v1/compliance?status=expired', { auth: acme.apiKey, headers: { accept: 'text/csv' } });
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
    const lines = csv.text.trim().split('\r\n');
    assert.equal(lines[0], 'id,profile_user_id,listing_id,requirement,credential_type,source,source_id,expires_at,status,subject');
    assert.equal(lines.length, 2);
    assert.ok(lines[1]!.endsWith(',expired,candidate'));

    // With a 60-day reminder the 40-day licence reads "expiring".
    assert.deepEqual((await as('GET', '/v1/compliance/settings')).body.reminder_days, [30, 7]);
    const put = await as('PUT', '/v1/compliance/settings', { reminder_days: [7, 60] });
    assert.deepEqual([put.status, put.body.reminder_days], [200, [60, 7]]);
    assert.equal((await as('GET', '/v1/compliance?status=expiring')).body.data[0].requirement, 'rn_license');
    const bad = await as('PUT', '/v1/compliance/settings', { reminder_days: [0, 7, 7] });
    assert.equal(bad.status, 400, bad.text);

    const unlicensed = await as('GET', '/v1/compliance', undefined, globex.apiKey);
    assert.deepEqual([unlicensed.status, unlicensed.body.error.code], [403, 'license_required']);
    await activateLicense(t, globex.apiKey, 'background_checks.compliance_tracking');
    const theirs = await as('GET', '/v1/compliance', undefined, globex.apiKey);
    assert.deepEqual(theirs.body.data, [], "another organization's records are never seen");
  });
  it('verifiable credentials presented for a candidate are held and verified again on schedule: revoked, then untrusted, each once with its event', async () => {
    const board = await new LocalIssuerServer().start();
    try {
      const college = await didKeyIssuer();
      await activateLicense(t, acme.apiKey, 'background_checks.license_verification');
      assert.equal((await as('PUT', '/v1/credential-trust/License', { issuers: [board.issuer.did, college.did] })).status, 200);
      const t0 = Date.now();
      const badge = (issuer: typeof college, index?: number) =>
        openBadge(issuer, {
          achievementType: 'License',
          name: 'Registered Nurse',
          validFrom: new Date(t0 - DAY),
          validUntil: new Date(t0 + 400 * DAY),
          ...(index !== undefined ? { status: { index, url: board.statusListUrl } } : {}),
        });
      const present = async (candidate: string, credential: object) => {
        const fired = await t.request('POST', '/host/v1/hooks/credentials.presented', {
          auth: t.operatorKey,
          body: {
            organization_id: acme.organizationId,
            payload: { check_id: `chk_${candidate}`, listing_id: listingId, candidate_id: candidate, credentials: [credential] },
          },
        });
        assert.deepEqual(fired.body.handled, ['license-verification-check'], fired.text);
      };
      await present('cand_jwt', { format: 'vc+jwt', credential: await signVcJwt(board.issuer, badge(board.issuer, 5)) });
      await present('cand_di', { format: 'vc+ld+json', credential: await signDataIntegrity(college, badge(college)) });
      const record = async (candidate: string) => (await as('GET', `/v1/compliance?profile_user_id=${candidate}`)).body.data[0];
      const held = await record('cand_jwt');
      assert.deepEqual(
        [held.requirement, held.source, held.status, held.expires_at],
        ['rn_license', 'vc_jwt', 'compliant', new Date(t0 + 400 * DAY).toISOString()],
      );
      assert.ok(held.verified_at);
      assert.deepEqual([(await record('cand_di')).source, (await record('cand_di')).status], ['data_integrity', 'compliant']);

      const sweep = async (days: number) => {
        const ran = await t.request('POST', '/v1/compliance/operator/sweep', { auth: t.operatorKey, body: { at: new Date(t0 + days * DAY).toISOString() } });
        assert.equal(ran.status, 200, ran.text);
        return [ran.body.reverified, ran.body.revoked, ran.body.untrusted];
      };
      board.revoke(5);
      assert.deepEqual(await sweep(0.5), [0, 0, 0], 'verified less than a day ago: not yet');
      assert.deepEqual(await sweep(2), [2, 1, 0], 'the status list fetched anew: revoked');
      assert.deepEqual([(await record('cand_jwt')).status, (await record('cand_jwt')).status_reason], ['revoked', 'credential_revoked']);
      assert.deepEqual(await sweep(3.5), [1, 0, 0], 'a revoked credential is not verified again; the other one is');
      // The organization stops trusting the college: its credential no longer counts.
      await as('PUT', '/v1/credential-trust/License', { issuers: [board.issuer.did] });
      assert.deepEqual(await sweep(5), [1, 0, 1]);
      assert.deepEqual([(await record('cand_di')).status, (await record('cand_di')).status_reason], ['untrusted', 'issuer_untrusted']);
      assert.deepEqual(await sweep(7), [0, 0, 0], 'once');
      const events = (await as('GET', '/v1/events?type=credential.revoked,credential.untrusted&limit=10')).body.data;
      assert.deepEqual(events.map((e: any) => [e.type, e.data.profile_user_id, e.data.reason]).reverse(), [
        ['credential.revoked', 'cand_jwt', 'credential_revoked'],
        ['credential.untrusted', 'cand_di', 'issuer_untrusted'],
      ]);
      assert.deepEqual(
        (await as('GET', '/v1/compliance?status=revoked')).body.data.map((r: any) => r.profile_user_id),
        ['cand_jwt'],
      );
      // A new, valid credential replaces a revoked one.
      await present('cand_jwt', { format: 'vc+jwt', credential: await signVcJwt(board.issuer, badge(board.issuer, 6)) });
      assert.equal((await record('cand_jwt')).status, 'compliant');
    } finally {
      await board.close();
    }
  });
  it('reminder emails: the holder the host named is emailed before the credential expires, once per lead time, each email an action run', async () => {
    const college = await didKeyIssuer();
    await as('PUT', '/v1/credential-trust/License', { issuers: [college.did] });
    await as('PUT', '/v1/compliance/settings', { reminder_days: [30, 7] });
    const t0 = Date.now();
    const credential = await signDataIntegrity(
      college,
      openBadge(college, { achievementType: 'License', name: 'Registered Nurse', validFrom: new Date(t0 - DAY), validUntil: new Date(t0 + 40 * DAY) }),
    );
    const fired = await t.request('POST', '/host/v1/hooks/credentials.presented', {
      auth: t.operatorKey,
      body: {
        organization_id: acme.organizationId,
        payload: {
          check_id: 'chk_mail',
          listing_id: listingId,
          candidate_id: 'cand_mail',
          candidate: { name: 'Grace Hopper', email: 'grace@example.com', language: 'de' },
          credentials: [{ format: 'vc+ld+json', credential }],
        },
      },
    });
    assert.deepEqual(fired.body.handled, ['license-verification-check'], fired.text);
    const mails = async () =>
      (await t.database.db('hi_connector_deliveries').where({ organization_id: acme.organizationId, connector: 'email' }))
        .map((m) => (typeof m.request === 'string' ? JSON.parse(m.request) : m.request))
        .filter((m) => m.to.email === 'grace@example.com');
    const sweep = async (days: number) => {
      const ran = await t.request('POST', '/v1/compliance/operator/sweep', { auth: t.operatorKey, body: { at: new Date(t0 + days * DAY).toISOString() } });
      assert.equal(ran.status, 200, ran.text);
      return ran.body;
    };
    await sweep(5);
    assert.equal((await mails()).length, 0, '35 days left: nothing yet');
    assert.equal((await sweep(11)).reminded, 1, '29 days left: the 30-day reminder');
    await sweep(12);
    assert.equal((await mails()).length, 1, 'once per lead time');
    await sweep(34);
    const sent = await mails();
    assert.equal(sent.length, 2, 'the 7-day reminder');
    // In the language the host named with the person.
    assert.match(sent[0].subject, /^Ihr Nachweis „License“ läuft am \d{4}-\d{2}-\d{2} ab$/);
    assert.match(sent[0].text, /^Hallo Grace Hopper,\n[\s\S]*in 29 Tagen\./);
    assert.match(sent[1].text, /in 6 Tagen/);
    const runs = (await as('GET', '/v1/integrations/runs?action=background_checks.compliance_tracking&limit=10')).body.data;
    assert.deepEqual(
      runs.map((r: any) => [r.step, r.status]),
      // Grace's two, and Ada's two from her reviewed document (the test before).
      [
        ['email', 'succeeded'],
        ['email', 'succeeded'],
        ['email', 'succeeded'],
        ['email', 'succeeded'],
      ],
    );
  });
  it('employees: a role requires an RN license; missing, uploaded through the emailed signed link, approved, met, then expiring (reminder over SMTP) and expired on the test clock', async () => {
    const mercy = await t.createOrganization('Mercy Hospital');
    const at = (method: string, p: string, body?: unknown, auth = mercy.apiKey) => t.request(method, p, { auth, body });
    await activateLicense(t, mercy.apiKey, 'background_checks.compliance_tracking');
    const connection = await at('POST', '/v1/integrations/connections', {
      connector: 'smtp',
      settings: { host: 'localhost', port: smtp.port, from_email: 'hr@mercy.example', tls_ca: smtp.certificate },
      credentials: {},
    });
    assert.equal(connection.status, 201, connection.text);
    assert.equal((await at('POST', `/v1/integrations/connections/${connection.body.id}/test`)).body.ok, true);
    const requirements = [{ key: 'rn_license', label: 'RN license', credential_type: 'License', min_validity_days: 0 }];
    const role = await at('POST', '/v1/roles', { name: 'Registered nurse', requirements });
    assert.equal(role.status, 201, role.text);
    assert.equal((await at('POST', '/v1/roles', { name: 'Bad', requirements: [{ key: 'Bad key' }] })).status, 400);
    const employee = await at('POST', '/v1/employees', { external_id: 'hr-1', name: 'Nora Nurse', email: 'nora@mercy.example', roles: [role.body.id] });
    assert.equal(employee.status, 201, employee.text);
    assert.equal((await at('POST', '/v1/employees', { external_id: 'hr-1', name: 'Twin', email: 'x@mercy.example' })).status, 409);
    assert.equal(
      (await at('POST', '/v1/employees', { external_id: 'hr-2', name: 'X', email: 'x@mercy.example', roles: ['role_nope'] })).body.error.code,
      'unknown_role',
    );
    const id = employee.body.id as string;
    const standing = async () => (await at('GET', `/v1/employees/${id}/compliance`)).body.roles[0].requirements[0];
    assert.deepEqual([(await standing()).status, (await standing()).reason], ['missing', 'no_matching_credential']);
    assert.equal((await at('GET', `/v1/employees/${id}`, undefined, globex.apiKey)).status, 404);
    assert.equal((await at('DELETE', `/v1/roles/${role.body.id}`)).body.error.code, 'role_in_use');

    const link = await at('POST', `/v1/employees/${id}/upload-links`, { role_id: role.body.id, requirement: 'rn_license' });
    assert.equal(link.status, 201, link.text);
    const mail = smtp.received.find((m) => m.envelope.to.includes('nora@mercy.example'))!;
    assert.ok(mail, 'the upload link is emailed');
    const token = decodeURIComponent(/token=(\S+)/.exec(mail.parsed.text ?? '')![1]!);
    assert.match(
      mail.parsed.text ?? '',
      /verifiable credential[\s\S]*\/v1\/employee-uploads\/credentials\?token=/,
      'the link says a credential may be presented instead',
    );
    const upload = (tok: string, content: Buffer) =>
      t.request('POST', `/v1/employee-uploads?token=${encodeURIComponent(tok)}`, {
        body: { file_name: 'rn.pdf', content_base64: content.toString('base64') },
      });
    const tampered = await upload(`${token.slice(0, -2)}xx`, PDF);
    assert.deepEqual([tampered.status, tampered.body.error.code], [400, 'link_invalid']);
    assert.equal((await upload(token, Buffer.concat([PDF, Buffer.alloc(5000)]))).status, 413);
    assert.equal((await upload(token, Buffer.from('#!/bin/sh\necho not a license\n'))).status, 415);
    assert.equal((await at('GET', `/v1/employees/${id}/documents`)).body.data.length, 0, 'nothing written for a refused upload');
    const uploaded = await upload(token, PDF);
    assert.deepEqual([uploaded.status, uploaded.body.status], [201, 'pending_review'], uploaded.text);

    const t0 = Date.now();
    const expiresAt = new Date(t0 + 40 * DAY).toISOString();
    const approved = await at('POST', `/v1/employees/${id}/documents/${uploaded.body.id}/approve`, { expires_at: expiresAt });
    assert.equal(approved.status, 200, approved.text);
    assert.equal((await at('POST', `/v1/employees/${id}/documents/${uploaded.body.id}/approve`, { expires_at: expiresAt })).status, 409);
    assert.deepEqual([(await standing()).status, (await standing()).expires_at], ['met', expiresAt]);
    const colleague = await at('POST', '/v1/employees', {
      external_id: 'hr-3',
      name: 'Omar Nurse',
      email: 'omar@mercy.example',
      language: 'ar',
      roles: [role.body.id],
    });
    const roster = (await at('GET', `/v1/roles/${role.body.id}/compliance`)).body.data;
    assert.deepEqual(
      roster.map((r: any) => [r.employee_id, r.status]).sort(),
      [
        [id, 'met'],
        [colleague.body.id, 'missing'],
      ].sort(),
    );
    // The upload link is written in the employee's language (Arabic: right to left), and says so.
    assert.equal((await at('POST', `/v1/employees/${colleague.body.id}/upload-links`, { role_id: role.body.id, requirement: 'rn_license' })).status, 201);
    const arabic = smtp.received.find((m) => m.envelope.to.includes('omar@mercy.example'))!;
    assert.equal(arabic.parsed.subject, 'يرجى رفع RN license');
    assert.equal(arabic.parsed.headers.get('content-language'), 'ar');
    assert.match(
      arabic.parsed.text ?? '',
      /^عزيزي\/عزيزتي Omar Nurse،\n[\s\S]*\/v1\/employee-uploads\?token=[\s\S]*\/v1\/employee-uploads\/credentials\?token=/,
    );
    assert.match(String(arabic.parsed.html), /<html lang="ar" dir="rtl">/);
    assert.equal(mail.parsed.headers.get('content-language'), 'en', 'an employee without a language reads English, and the header says so');
    const records = (await at('GET', `/v1/compliance?role_id=${role.body.id}`)).body.data;
    assert.deepEqual(
      records.map((r: any) => [r.subject, r.employee_id, r.role_id, r.requirement, r.status]),
      [['employee', id, role.body.id, 'rn_license', 'compliant']],
    );
    assert.equal((await at('GET', '/v1/compliance?subject=candidate')).body.data.length, 0);
    const csv = await t.request('GET', '/v1/compliance?subject=employee', { auth: mercy.apiKey, headers: { accept: 'text/csv' } });
    assert.ok(csv.text.trim().split('\r\n')[1]!.endsWith(',compliant,employee'));

    const sweep = async (days: number) =>
      (await t.request('POST', '/v1/compliance/operator/sweep', { auth: t.operatorKey, body: { at: new Date(t0 + days * DAY).toISOString() } })).body;
    await sweep(11);
    const reminder = await waitFor(async () => smtp.received.find((m) => /expires on/.test(m.parsed.subject ?? '')), 'the reminder email');
    assert.deepEqual(reminder.envelope.to, ['nora@mercy.example']);
    assert.match(reminder.parsed.text ?? '', /Dear Nora Nurse,[\s\S]*in 29 days/);
    await at('PUT', '/v1/compliance/settings', { reminder_days: [60, 7] });
    assert.equal((await standing()).status, 'expiring', 'inside the furthest reminder');
    // The next reminder reads the employee's language as it is now (French), and says so.
    assert.equal((await at('PATCH', `/v1/employees/${id}`, { language: 'fr' })).status, 200);
    await sweep(34);
    const french = await waitFor(async () => smtp.received.find((m) => /expire le/.test(m.parsed.subject ?? '')), 'the French reminder');
    assert.equal(french.parsed.subject, `Votre License expire le ${expiresAt.slice(0, 10)}`);
    assert.equal(french.parsed.headers.get('content-language'), 'fr');
    assert.match(french.parsed.text ?? '', /^Bonjour Nora Nurse,\n[\s\S]*« rn_license » expire le [\s\S]*dans 6 jours\.\nMerci de le renouveler/);
    assert.equal(reminder.parsed.headers.get('content-language'), 'en');
    await sweep(41);
    const events = (await at('GET', '/v1/events?type=credential.expiring,credential.expired&limit=10')).body.data;
    assert.deepEqual(events.map((e: any) => [e.type, e.data.subject, e.data.employee_id, e.data.role_id]).reverse(), [
      ['credential.expiring', 'employee', id, role.body.id],
      ['credential.expiring', 'employee', id, role.body.id],
      ['credential.expired', 'employee', id, role.body.id],
    ]);
    assert.match(reminder.parsed.text ?? '', /send us the renewed document/);
    // Giving up the role stops tracking it; then the role can go.
    assert.equal((await at('PATCH', `/v1/employees/${id}`, { roles: [] })).status, 200);
    assert.deepEqual((await at('GET', `/v1/compliance?employee_id=${id}`)).body.data, []);
    assert.equal((await at('DELETE', `/v1/employees/${colleague.body.id}`)).status, 200);
    assert.equal((await at('DELETE', `/v1/roles/${role.body.id}`)).status, 200);
  });
  it('employees present verifiable credentials through their link or the API: met and held (tracked, re-verified: revoked, untrusted); tampered, expired, revoked or untrusted ones are refused with their reason', async () => {
    const board = await new LocalIssuerServer().start();
    try {
      const luke = await t.createOrganization('St. Luke Clinic');
      const at = (method: string, p: string, body?: unknown, auth = luke.apiKey) => t.request(method, p, { auth, body });
      await activateLicense(t, luke.apiKey, 'background_checks.compliance_tracking');
      const college = await didKeyIssuer();
      const stranger = await didKeyIssuer();
      // The role names no issuers: the organization's trust list for the type applies, as for listings.
      assert.equal((await at('PUT', '/v1/credential-trust/License', { issuers: [board.issuer.did, college.did] })).status, 200);
      const role = await at('POST', '/v1/roles', {
        name: 'Registered nurse',
        requirements: [{ key: 'rn_license', label: 'RN license', credential_type: 'License', min_validity_days: 30 }],
      });
      const hire = async (externalId: string, name: string) =>
        (await at('POST', '/v1/employees', { external_id: externalId, name, email: `${externalId}@luke.example`, roles: [role.body.id] })).body.id as string;
      const nora = await hire('n-1', 'Nora Nurse');
      const omar = await hire('n-2', 'Omar Nurse');
      // The link the upload email carries (signed as the plugin signs it).
      const token = new SignedLinks(deriveKey(t.config.secretKey, 'message-links')).sign({
        p: 'employee_document_upload',
        o: luke.organizationId,
        r: `${nora}:${role.body.id}:rn_license`,
        x: Math.floor(Date.now() / 1000) + 3600,
      });
      const t0 = Date.now();
      const badge = (issuer: typeof college, options: { days?: number; index?: number } = {}) =>
        openBadge(issuer, {
          achievementType: 'License',
          name: 'Registered Nurse',
          validFrom: new Date(t0 - DAY),
          validUntil: new Date(t0 + (options.days ?? 400) * DAY),
          ...(options.index !== undefined ? { status: { index: options.index, url: board.statusListUrl } } : {}),
        });
      const present = async (credential: object, tok = token) =>
        t.request('POST', `/v1/employee-uploads/credentials?token=${encodeURIComponent(tok)}`, { body: { credential } });
      const outcome = async (credential: object) => {
        const answered = await present(credential);
        assert.equal(answered.status, 200, answered.text);
        return [answered.body.status, answered.body.reason, answered.body.held];
      };
      const jwt = await signVcJwt(board.issuer, badge(board.issuer, { index: 3 }));
      const [header, payload, signature] = jwt.split('.');
      const forged = Buffer.from(payload!, 'base64url').toString().replace('Registered Nurse', 'Nurse Practitioner');
      assert.deepEqual(await outcome({ format: 'vc+jwt', credential: `${header}.${Buffer.from(forged).toString('base64url')}.${signature}` }), [
        'unverified',
        'signature_invalid',
        false,
      ]);
      assert.deepEqual(await outcome({ format: 'vc+jwt', credential: await signVcJwt(stranger, badge(stranger)) }), ['unverified', 'issuer_untrusted', false]);
      assert.deepEqual(await outcome({ format: 'vc+ld+json', credential: await signDataIntegrity(college, badge(college, { days: 10 })) }), [
        'expired',
        'validity_below_minimum',
        false,
      ]);
      board.revoke(4);
      assert.deepEqual(await outcome({ format: 'vc+jwt', credential: await signVcJwt(board.issuer, badge(board.issuer, { index: 4 })) }), [
        'unverified',
        'credential_revoked',
        false,
      ]);
      assert.equal((await present({ format: 'self_reported', title: 'RN', issuer: 'me' })).status, 400, 'a title proves nothing');
      const unbounded = openBadge(board.issuer, { achievementType: 'License', name: 'Registered Nurse', validFrom: new Date(t0 - DAY) });
      assert.equal((await present({ format: 'vc+jwt', credential: await signVcJwt(board.issuer, unbounded) })).body.error.code, 'credential_without_expiry');
      assert.deepEqual((await present({ format: 'vc+jwt', credential: jwt }, `${token.slice(0, -2)}xx`)).body.error.code, 'link_invalid');
      assert.deepEqual((await at('GET', `/v1/compliance?employee_id=${nora}`)).body.data, [], 'nothing held for a refused credential');

      const met = await present({ format: 'vc+jwt', credential: jwt });
      assert.deepEqual(
        [met.status, met.body.status, met.body.held, met.body.expires_at, met.body.evidence.source],
        [200, 'met', true, new Date(t0 + 400 * DAY).toISOString(), 'vc_jwt'],
        met.text,
      );
      const standing = async (employee: string) => (await at('GET', `/v1/employees/${employee}/compliance`)).body.roles[0].requirements[0];
      assert.equal((await standing(nora)).status, 'met');
      const shorter = await present({ format: 'vc+ld+json', credential: await signDataIntegrity(college, badge(college, { days: 200 })) });
      assert.deepEqual(
        [shorter.body.status, shorter.body.held, shorter.body.expires_at],
        ['met', false, new Date(t0 + 400 * DAY).toISOString()],
        'one expiring earlier than the one held changes nothing',
      );
      // The host presents Omar's credential through the API; another organization's key does not find him.
      const credential = { format: 'vc+ld+json', credential: await signDataIntegrity(college, badge(college)) };
      const body = { role_id: role.body.id, requirement: 'rn_license', credential };
      assert.equal((await at('POST', `/v1/employees/${omar}/credentials`, body, globex.apiKey)).status, 404);
      const viaApi = await at('POST', `/v1/employees/${omar}/credentials`, body);
      assert.deepEqual([viaApi.status, viaApi.body.status, viaApi.body.held, viaApi.body.evidence.source], [200, 'met', true, 'data_integrity'], viaApi.text);
      assert.equal((await at('POST', `/v1/employees/${omar}/credentials`, { ...body, requirement: 'cpr' })).body.error.code, 'unknown_requirement');
      const record = async (employee: string) => (await at('GET', `/v1/compliance?employee_id=${employee}`)).body.data[0];
      assert.deepEqual([(await record(omar)).subject, (await record(omar)).source, (await record(omar)).status], ['employee', 'data_integrity', 'compliant']);

      // Verified again on schedule, as a candidate's: the board revokes Nora's license, then the organization stops trusting the college.
      const sweep = async (days: number) => {
        const ran = await t.request('POST', '/v1/compliance/operator/sweep', { auth: t.operatorKey, body: { at: new Date(t0 + days * DAY).toISOString() } });
        assert.equal(ran.status, 200, ran.text);
        return [ran.body.revoked, ran.body.untrusted];
      };
      board.revoke(3);
      assert.deepEqual(await sweep(2), [1, 0]);
      assert.deepEqual([(await standing(nora)).status, (await standing(nora)).reason], ['missing', 'credential_revoked']);
      await at('PUT', '/v1/credential-trust/License', { issuers: [board.issuer.did] });
      assert.deepEqual(await sweep(4), [0, 1]);
      assert.deepEqual([(await standing(omar)).status, (await standing(omar)).reason], ['missing', 'issuer_untrusted']);
      const events = (await at('GET', '/v1/events?type=credential.revoked,credential.untrusted&limit=10')).body.data;
      assert.deepEqual(events.map((e: any) => [e.type, e.data.subject, e.data.employee_id]).reverse(), [
        ['credential.revoked', 'employee', nora],
        ['credential.untrusted', 'employee', omar],
      ]);
    } finally {
      await board.close();
    }
  });
});
