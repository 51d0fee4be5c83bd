/**
 * Candidates out (issue 28 §4, §5) through the standalone host. job_import.export_candidates:
 * CSV and HR Open JSON content, a 100,000-row export streamed with bounded heap growth, a
 * file delivered to Debian's sshd (host key pinned, checksum on the run).
 * sourcing.source_candidates: past applicants who consented (with their application) are
 * found and ranked, the others never; an invitation arrives by email at a real SMTP server
 * (Nodemailer's smtp-server) and the application through its link is attributed, once; it
 * carries an RFC 8058 one-click unsubscribe that withdraws the consent. Where an application
 * has a credential check (issue 25), the check, not the provider's flag, says what is verified.
 */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { get, type IncomingMessage } from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parse } from 'csv-parse/sync';
import { SftpFileConnector } from '../../src/connectors/sftp/sftp-file-connector';
import { CandidateExportService } from '../../src/features/candidate-exports/domain/candidate-export-service';
import { KnexExportSchedules } from '../../src/features/candidate-exports/storage/knex-export-schedules';
import { KnexExportSource } from '../../src/features/candidate-exports/storage/knex-export-source';
import { activateLicense } from '../helpers/hooks';
import { rememberSecret } from '../helpers/log-capture';
import { ADA, ALAN, enableProfileApply, GRACE, KATHERINE, QUESTIONS, runConnect, waitFor } from '../helpers/profile-flow';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server';
import { startSshd, type TestSshd } from '../helpers/sshd';
import { startTestHost, type TestHost } from '../helpers/test-host';

const EXPORT = 'job_import.export_candidates';
const SOURCING = 'sourcing.source_candidates';
const PAGE = 'https://careers.acme.example/jobs/{listing_id}';
const ORIGIN = 'https://careers.acme.example';
const ANSWERS = { years_experience: 3, work_authorization: true };
const SMTP_PASSWORD = 'smtp-secret-for-sourcing';

/** A full collection on demand, so heap samples count what is retained, not garbage not yet collected. */
function collector(): () => void {
  setFlagsFromString('--expose_gc');
  return runInNewContext('gc') as () => void;
}

/** Inserts `count` applications in one statement (generate_series): no API round trips. */
async function bulkApplications(t: TestHost, organizationId: string, count: number, prefix: string): Promise<void> {
  await t.database.db.transaction(async (trx) => {
    // The organization exists: its foreign-key check per row (a trigger each) is skipped for the load.
    if (t.database.url) await trx.raw('set local session_replication_role = replica');
    await trx.raw(
      `insert into hi_profile_applications (id, organization_id, listing_id, profile_user_id, status, answers, candidate_name, candidate_headline,
       imported_skills, imported_credentials, experience_summary, work_history, profile_url, created_at, delivered_at)
     select ?::text || n, ?, 'lst_bulk', 'usr_' || ?::text || lpad(n::text, 7, '0'), 'submitted', '{}'::jsonb, 'Candidate ' || n, 'Engineer',
       '["TypeScript","Go"]'::jsonb, '[{"title":"AWS Developer","issuer":"AWS","verified":true,"issued_at":"2023-04-01"}]'::jsonb,
       '{"total_years":7.5,"current_title":"Engineer","current_company":"Northwind"}'::jsonb, '[]'::jsonb,
       'https://profiles.example.com/' || n, now(), now()
     from generate_series(1, ?) as n`,
      [`app_${prefix}`, organizationId, prefix, count],
    );
  });
  // Fresh statistics, as autovacuum would have them, so the planner reads the export index.
  await t.database.db.raw('analyze hi_profile_applications');
}

describe('candidates out: exports (job_import.export_candidates) and sourcing (sourcing.source_candidates)', function () {
  this.timeout(120_000);
  let t: TestHost;
  let sshd: TestSshd;
  let smtp: TestSmtpServer;
  let acme: { organizationId: string; apiKey: string };

  before(async () => {
    rememberSecret(SMTP_PASSWORD);
    [sshd, smtp] = await Promise.all([startSshd(), startSmtpServer({ username: 'acme-mailer', password: SMTP_PASSWORD })]);
    t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_PUBLIC_PER_MINUTE: '0', JOB_FEEDS_LISTING_URL: PAGE } });
    acme = await t.createOrganization('Acme');
  });
  after(async () => {
    await t?.close();
    await sshd?.stop();
    await smtp?.close();
  });

  it('refuses without the license (403 license_required, a JSON error before any byte)', async () => {
    const refused = await t.request('GET', '/v1/candidate-exports/download?format=csv', { auth: acme.apiKey });
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body.error.code, 'license_required');
    await activateLicense(t, acme.apiKey, EXPORT);
  });

  it('exports CSV (candidates.v1, formulas defused) and HR Open JSON, filtered; each download is a run with the file SHA-256', async () => {
    const db = t.database.db;
    const base = {
      organization_id: acme.organizationId,
      status: 'submitted',
      answers: '{}',
      imported_credentials: JSON.stringify([
        { title: 'AWS Certified Developer', issuer: 'Amazon Web Services', verified: true, issued_at: '2023-04-01' },
        { title: 'Unverified thing', issuer: 'Nobody', verified: false, issued_at: '2020-01-01' },
      ]),
      experience_summary: JSON.stringify({ total_years: 7.5, current_title: 'Staff Engineer', current_company: 'Northwind' }),
      work_history: JSON.stringify([{ title: 'Staff Engineer', company: 'Northwind', start_date: '2021-03-01', end_date: null, verified: true }]),
      profile_url: 'https://profiles.example.com/ada',
      // Delivered already: the reconciliation sweep leaves them alone.
      delivered_at: new Date(),
    };
    await db('hi_profile_applications').insert([
      {
        ...base,
        id: 'app_ada1',
        listing_id: 'lst_nurse',
        profile_user_id: 'usr_ada',
        candidate_name: 'Ada King Lovelace',
        candidate_headline: '=cmd|calc',
        imported_skills: '["TypeScript","Go"]',
        source: 'indeed',
        created_at: new Date('2026-11-01T10:00:00Z'),
      },
      {
        ...base,
        id: 'app_ada2',
        listing_id: 'lst_coder',
        profile_user_id: 'usr_ada',
        candidate_name: 'Ada King Lovelace',
        candidate_headline: null,
        imported_skills: '["TypeScript"]',
        created_at: new Date('2026-11-20T10:00:00Z'),
      },
      {
        ...base,
        id: 'app_bob1',
        listing_id: 'lst_coder',
        profile_user_id: 'usr_bob',
        candidate_name: 'Bob',
        candidate_headline: 'Builder',
        imported_skills: '[]',
        created_at: new Date('2026-11-21T10:00:00Z'),
      },
    ]);
    const csv = await t.request('GET', '/v1/candidate-exports/download', { auth: acme.apiKey });
    assert.equal(csv.status, 200, csv.text);
    assert.match(csv.headers.get('content-type')!, /^text\/csv/);
    const rows = parse(csv.text, { columns: true }) as Record<string, string>[];
    assert.deepEqual(
      rows.map((r) => r.application_id),
      ['app_ada1', 'app_ada2', 'app_bob1'],
    );
    assert.deepEqual(rows[0], {
      application_id: 'app_ada1',
      listing_id: 'lst_nurse',
      status: 'submitted',
      source: 'indeed',
      applied_at: '2026-11-01T10:00:00.000Z',
      profile_user_id: 'usr_ada',
      candidate_name: 'Ada King Lovelace',
      candidate_headline: "'=cmd|calc",
      email: '',
      profile_url: 'https://profiles.example.com/ada',
      total_years: '7.5',
      current_title: 'Staff Engineer',
      current_company: 'Northwind',
      verified_skills: 'TypeScript; Go',
      verified_credentials: 'AWS Certified Developer (Amazon Web Services)',
      positions: '1',
    });
    const runs = await t.request('GET', `/v1/integrations/runs?action=${EXPORT}`, { auth: acme.apiKey });
    const run = runs.body.data[0];
    assert.equal(run.status, 'succeeded', JSON.stringify(run));
    assert.equal(run.step, 'download');
    assert.equal(run.reference, `sha256:${createHash('sha256').update(csv.text).digest('hex')}`);

    const filtered = await t.request('GET', '/v1/candidate-exports/download?format=csv&listing_id=lst_coder&since=2026-11-21T00:00:00Z', { auth: acme.apiKey });
    assert.deepEqual(
      (parse(filtered.text, { columns: true }) as Record<string, string>[]).map((r) => r.application_id),
      ['app_bob1'],
    );

    const json = await t.request('GET', '/v1/candidate-exports/download?format=hr_open_json', { auth: acme.apiKey });
    assert.equal(json.status, 200, json.text);
    assert.equal(json.body.length, 2, 'one CandidateType document per candidate');
    const ada = json.body[0];
    assert.deepEqual(ada.person.name, { formattedName: 'Ada King Lovelace', given: 'Ada King', family: 'Lovelace' });
    assert.deepEqual(
      ada.profiles.map((p: any) => p.profileId.value),
      ['app_ada1', 'app_ada2'],
    );
    assert.deepEqual(ada.profiles[0].associatedPositionOpenings[0].positionOpeningId, {
      value: 'lst_nurse',
      schemeId: 'listing',
      schemeAgencyId: 'hiring-integrations',
    });
    assert.deepEqual(
      ada.profiles[0].qualifications.map((q: any) => q.competencyName),
      ['TypeScript', 'Go'],
    );
    assert.deepEqual(ada.profiles[0].certifications[0], {
      name: 'AWS Certified Developer',
      issuingAuthority: { name: 'Amazon Web Services' },
      effectiveTimePeriod: { validFrom: '2023-04-01' },
      verified: true,
    });
    assert.deepEqual(ada.profiles[0].employment[0].positionHistories, [{ title: 'Staff Engineer', start: '2021-03-01', current: true }]);

    const bad = await t.request('GET', '/v1/candidate-exports/download?format=xlsx', { auth: acme.apiKey });
    assert.equal(bad.status, 400);
    await db('hi_profile_applications').where({ organization_id: acme.organizationId }).delete();
  });

  it('streams 100,000 applications with bounded heap growth (the whole file is far larger)', async () => {
    const globex = await t.createOrganization('Globex');
    await activateLicense(t, globex.apiKey, EXPORT);
    let at = Date.now();
    await bulkApplications(t, globex.organizationId, Number(process.env.BULK ?? 100_000), 'bulk');
    console.log(`      bulk insert: ${Date.now() - at} ms`);
    at = Date.now();
    const gc = collector();
    gc();
    const baseline = process.memoryUsage().heapUsed;
    let peak = baseline;
    let bytes = 0;
    let sampledAt = 0;
    let documents = 0;
    // A connection of its own (agent: false): a kept-alive one may have been closed while the rows went in.
    const response = await new Promise<IncomingMessage>((resolve, reject) =>
      get(`${t.baseUrl}/v1/candidate-exports/download?format=csv`, { agent: false, headers: { authorization: `Bearer ${globex.apiKey}` } }, resolve).on(
        'error',
        reject,
      ),
    );
    assert.equal(response.statusCode, 200);
    const decoder = new TextDecoder();
    for await (const chunk of response as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      documents += (decoder.decode(chunk, { stream: true }).match(/\n/g) ?? []).length;
      // Every 8 MB: what the server and client hold once garbage is gone.
      if (bytes - sampledAt > 8e6) {
        sampledAt = bytes;
        gc();
        peak = Math.max(peak, process.memoryUsage().heapUsed);
      }
    }
    console.log(`      download: ${Date.now() - at} ms`);
    const growth = peak - baseline;
    console.log(`      100,000 rows: ${(bytes / 1e6).toFixed(1)} MB streamed, heap growth ${(growth / 1e6).toFixed(1)} MB`);
    assert.equal(documents, 100_001, 'the header and one row per application');
    assert.ok(bytes > 16e6, `the file (${bytes} bytes) must outweigh the bound for the check to mean anything`);
    assert.ok(growth < 8e6, `heap grew ${growth} bytes while streaming`);
  });

  it('delivers files to the SFTP connection (pinned host key, atomic rename, the run reference its SHA-256), on demand and on schedule', async () => {
    const cara = {
      id: 'app_sftp1',
      organization_id: acme.organizationId,
      listing_id: 'lst_nurse',
      profile_user_id: 'usr_cara',
      status: 'submitted',
      answers: '{}',
      candidate_name: 'Cara',
      candidate_headline: null,
      imported_skills: '["Critical care"]',
      imported_credentials: '[]',
      experience_summary: JSON.stringify({ total_years: 3, current_title: null, current_company: null }),
      work_history: '[]',
      profile_url: 'https://profiles.example.com/cara',
      created_at: new Date(),
      delivered_at: new Date(),
    };
    await t.database.db('hi_profile_applications').insert(cara);
    const missing = await t.request('POST', '/v1/candidate-exports/deliveries', { auth: acme.apiKey, body: { format: 'csv' } });
    assert.equal(missing.status, 409, missing.text);
    assert.equal(missing.body.error.code, 'connection_missing');
    const created = await t.request('POST', '/v1/integrations/connections', {
      auth: acme.apiKey,
      body: {
        connector: 'sftp',
        settings: { host: '127.0.0.1', port: sshd.port, username: sshd.username, directory: sshd.inbound, host_key_sha256: sshd.hostKeySha256 },
        credentials: { private_key: sshd.clientKey },
      },
    });
    assert.equal(created.status, 201, created.text);
    const tested = await t.request('POST', `/v1/integrations/connections/${created.body.id}/test`, { auth: acme.apiKey });
    assert.equal(tested.body.ok, true, tested.text);
    const delivered = await t.request('POST', '/v1/candidate-exports/deliveries', { auth: acme.apiKey, body: { format: 'csv' } });
    assert.equal(delivered.status, 201, delivered.text);
    assert.match(delivered.body.file_name, /^candidates-\d{8}T\d{6}Z\.csv$/);
    const bytes = readFileSync(path.join(sshd.inbound, delivered.body.file_name));
    assert.deepEqual(
      (parse(bytes, { columns: true }) as Record<string, string>[]).map((r) => r.application_id),
      ['app_sftp1'],
    );
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    assert.equal(delivered.body.sha256, sha256);
    const run = (await t.request('GET', `/v1/integrations/runs/${delivered.body.run_id}`, { auth: acme.apiKey })).body;
    assert.equal(run.status, 'succeeded');
    assert.equal(run.connector, 'sftp');
    assert.equal(run.reference, `sha256:${sha256}`);

    const schedule = await t.request('PUT', '/v1/candidate-exports/schedule', { auth: acme.apiKey, body: { format: 'hr_open_json', every: 'daily' } });
    assert.equal(schedule.status, 200, schedule.text);
    assert.equal(schedule.body.every, 'daily');
    assert.equal(schedule.body.last_delivered_at, null);

    // The sweep, run here rather than waiting for its minute: the service over this database and the same sshd.
    const connector = new SftpFileConnector(
      { host: '127.0.0.1', port: sshd.port, username: sshd.username, directory: sshd.inbound, host_key_sha256: sshd.hostKeySha256 },
      { private_key: sshd.clientKey },
    );
    const sweep = new CandidateExportService({
      source: new KnexExportSource(t.database.db),
      entitlements: { isActive: async () => true, requireActive: async () => undefined },
      runner: undefined as never,
      files: connector,
      schedules: new KnexExportSchedules(t.database.db),
      now: () => new Date(),
    });
    const due = () =>
      t.database
        .db('hi_candidate_export_schedules')
        .where({ organization_id: acme.organizationId })
        .update({ next_run_at: new Date(Date.now() - 1000) });
    assert.deepEqual(await sweep.runDue(), { delivered: 0, failed: 0 }, 'not due yet');
    await due();
    assert.deepEqual(await sweep.runDue(), { delivered: 1, failed: 0 });
    const after = (await t.request('GET', '/v1/candidate-exports/schedule', { auth: acme.apiKey })).body;
    assert.ok(after.last_delivered_at && Date.parse(after.next_run_at) > Date.now() + 23 * 3600_000, JSON.stringify(after));
    const jsonFiles = () =>
      readdirSync(sshd.inbound)
        .filter((f) => /^candidates-.*\.json$/.test(f))
        .sort();
    const first = JSON.parse(readFileSync(path.join(sshd.inbound, jsonFiles()[0]!), 'utf8'));
    assert.deepEqual(
      first.map((d: any) => d.profiles[0].profileId.value),
      ['app_sftp1'],
    );
    // The next occurrence carries only what arrived since.
    await t.database.db('hi_profile_applications').insert({ ...cara, id: 'app_sftp2', listing_id: 'lst_coder', created_at: new Date() });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await due();
    assert.deepEqual(await sweep.runDue(), { delivered: 1, failed: 0 });
    const second = JSON.parse(readFileSync(path.join(sshd.inbound, jsonFiles()[1]!), 'utf8'));
    assert.deepEqual(
      second.map((d: any) => d.profiles.map((p: any) => p.profileId.value)),
      [['app_sftp2']],
    );
  });

  it('sourcing: finds consenting past applicants ranked by verified skills, credentials and experience; never the others', async () => {
    await enableProfileApply(t, acme.apiKey, [ORIGIN]);
    const refused = await t.request('GET', '/v1/sourcing/candidates?skills=TypeScript', { auth: acme.apiKey });
    assert.equal(refused.status, 403);
    await activateLicense(t, acme.apiKey, SOURCING);
    const old = (await t.request('POST', '/v1/listings', { auth: acme.apiKey, body: { title: 'Platform engineer', location: 'Lyon', questions: QUESTIONS } }))
      .body;
    const consents: Record<string, object | undefined> = {
      [ADA.id]: { consent: true, email: 'ada@lovelace.example', location: 'Lyon, France' },
      [GRACE.id]: { consent: true, email: 'grace@hopper.example', location: 'Remote' },
      [ALAN.id]: undefined,
    };
    for (const person of [ADA, GRACE, ALAN]) {
      const run = await runConnect(t, { organizationId: acme.organizationId, listingId: old.id, origin: ORIGIN, button: `Authorize as ${person.name}` });
      assert.equal(run.result?.message.type, 'profile-apply:authorized');
      const consent = consents[person.id];
      const applied = await t.request('POST', `/v1/opportunities/listings/${old.id}/applications/profile`, {
        auth: acme.apiKey,
        body: { profile_user_id: person.id, answers: ANSWERS, ...(consent ? { recontact_consent: consent } : {}) },
      });
      assert.equal(applied.status, 201, applied.text);
    }
    const search = async (query: string) => {
      const found = await t.request('GET', `/v1/sourcing/candidates?${query}`, { auth: acme.apiKey });
      assert.equal(found.status, 200, found.text);
      return found.body.data as any[];
    };
    // Alan matches Python but never consented: he is not found.
    const broad = await search('skills=TypeScript,Compilers,Python&credentials=AWS Certified');
    assert.deepEqual(
      broad.map((c) => c.profile_user_id),
      [ADA.id, GRACE.id],
    );
    assert.deepEqual(broad[0].matched_skills, ['TypeScript']);
    assert.deepEqual(broad[0].matched_credentials, ['AWS Certified Solutions Architect – Professional']);
    assert.equal(broad[0].score, 10 + 15 + Math.min(10, Math.floor(broad[0].total_years)));
    assert.equal(broad[1].score, 10 + Math.min(10, Math.floor(broad[1].total_years)));
    // Unverified skills (Ada's Kubernetes) do not count.
    assert.deepEqual(await search('skills=Kubernetes'), []);
    assert.deepEqual(
      (await search('skills=TypeScript,Compilers&location=lyon')).map((c) => c.profile_user_id),
      [ADA.id],
    );
    assert.deepEqual(
      (await search('skills=Compilers,TypeScript&min_years=40')).map((c) => c.profile_user_id),
      [],
    );
    // Grace withdraws: gone from every search at once, and she cannot be invited.
    assert.equal((await t.request('DELETE', `/v1/sourcing/candidates/${GRACE.id}/consent`, { auth: acme.apiKey })).status, 200);
    assert.deepEqual(
      (await search('skills=TypeScript,Compilers')).map((c) => c.profile_user_id),
      [ADA.id],
    );
    assert.equal((await t.request('DELETE', `/v1/sourcing/candidates/${GRACE.id}/consent`, { auth: acme.apiKey })).status, 404);
  });

  it('sourcing: an invitation arrives by email; the application through its link is attributed, once; erasure leaves the pool', async () => {
    const created = await t.request('POST', '/v1/integrations/connections', {
      auth: acme.apiKey,
      body: {
        connector: 'smtp',
        settings: {
          host: 'localhost',
          port: smtp.port,
          security: 'starttls',
          from_email: 'jobs@acme.example',
          from_name: 'Acme Hiring',
          tls_ca: smtp.certificate,
        },
        credentials: { username: 'acme-mailer', password: SMTP_PASSWORD },
      },
    });
    assert.equal(created.status, 201, created.text);
    const tested = await t.request('POST', `/v1/integrations/connections/${created.body.id}/test`, { auth: acme.apiKey });
    assert.equal(tested.body.ok, true, tested.text);
    const coder = (
      await t.request('POST', '/v1/listings', { auth: acme.apiKey, body: { title: 'Compiler engineer', location: 'Remote', questions: QUESTIONS } })
    ).body;

    const grace = await t.request('POST', '/v1/sourcing/invitations', { auth: acme.apiKey, body: { profile_user_id: GRACE.id, listing_id: coder.id } });
    assert.equal(grace.status, 404, 'withdrawn consent: not invitable');
    const invited = await t.request('POST', '/v1/sourcing/invitations', {
      auth: acme.apiKey,
      body: { profile_user_id: ADA.id, listing_id: coder.id, message: 'We loved your last application.' },
    });
    assert.equal(invited.status, 201, invited.text);
    assert.equal(invited.body.status, 'sent');
    const mail = await waitFor(async () => smtp.received.find((m) => m.envelope.to.includes('ada@lovelace.example')), 'the invitation email');
    assert.match(mail.parsed.subject ?? '', /Acme invites you to apply: Compiler engineer/);
    const link = new URL((mail.parsed.text ?? '').match(/https:\/\/careers\.acme\.example\/jobs\/\S+/)![0]);
    assert.equal(link.pathname, `/jobs/${coder.id}`);
    const source = link.searchParams.get('source')!;
    assert.match(source, /^sourcing\.sinv_/);
    const run = (await t.request('GET', `/v1/integrations/runs/${invited.body.run_id}`, { auth: acme.apiKey })).body;
    assert.equal(run.status, 'succeeded');
    assert.equal(run.connector, 'smtp');

    // Ada authorizes from the listing page and applies with the link's source.
    const run2 = await runConnect(t, { organizationId: acme.organizationId, listingId: coder.id, origin: ORIGIN, button: `Authorize as ${ADA.name}` });
    assert.equal(run2.result?.message.type, 'profile-apply:authorized');
    const apply = (profileUserId: string) =>
      t.request('POST', `/v1/opportunities/listings/${coder.id}/applications/profile`, {
        auth: acme.apiKey,
        body: { profile_user_id: profileUserId, answers: ANSWERS, source },
      });
    // Another candidate cannot use Ada's invitation.
    const stolen = await apply(GRACE.id);
    assert.equal(stolen.status, 400, stolen.text);
    assert.equal(stolen.body.error.code, 'source_invalid');
    const applied = await apply(ADA.id);
    assert.equal(applied.status, 201, applied.text);
    const application = await t.request('GET', `/v1/opportunities/applications/${applied.body.application_id}`, { auth: acme.apiKey });
    assert.equal(application.body.source, 'sourcing');
    const invitation = await t.request('GET', `/v1/sourcing/invitations/${invited.body.id}`, { auth: acme.apiKey });
    assert.equal(invitation.body.status, 'accepted');
    assert.equal(invitation.body.application_id, applied.body.application_id);
    const again = await apply(ADA.id);
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'invitation_used');
    const accepted = await t.database.db('hi_events').where({ organization_id: acme.organizationId, type: 'sourcing.invitation_accepted' });
    assert.equal(accepted.length, 1);

    // Erasure takes Ada out of the pool (and her invitations with her).
    const erasure = await t.request('POST', `/v1/candidates/${ADA.id}/erasure`, { auth: acme.apiKey, body: {} });
    assert.equal(erasure.status, 202, erasure.text);
    await waitFor(
      async () => (await t.database.db('hi_candidate_erasures').where({ id: erasure.body.id }).whereNot({ status: 'pending' })).length === 1,
      "Ada's erasure",
    );
    const found = await t.request('GET', '/v1/sourcing/candidates?skills=TypeScript', { auth: acme.apiKey });
    assert.deepEqual(found.body.data, []);
    assert.equal((await t.database.db('hi_sourcing_invitations').where({ organization_id: acme.organizationId, profile_user_id: ADA.id })).length, 0);
  });

  it("sourcing: credentials count as verified when the application's check says so (a reviewed document), not on the provider's word", async () => {
    await activateLicense(t, acme.apiKey, 'background_checks.credentialing');
    const requirements = [{ key: 'rn_license', label: 'RN license', credential_type: 'Registered Nurse License', verified_source_required: true }];
    const icu = await t.request('POST', '/v1/listings', {
      auth: acme.apiKey,
      body: { title: 'ICU nurse', location: 'Boston', questions: QUESTIONS, requirements },
    });
    assert.equal(icu.status, 201, icu.text);
    const run = await runConnect(t, { organizationId: acme.organizationId, listingId: icu.body.id, origin: ORIGIN, button: `Authorize as ${KATHERINE.name}` });
    assert.equal(run.result?.message.type, 'profile-apply:authorized');
    const applied = await t.request('POST', `/v1/opportunities/listings/${icu.body.id}/applications/profile`, {
      auth: acme.apiKey,
      // She applied in French (the widget's language): her consent keeps it, and invitations are written in it.
      body: {
        profile_user_id: KATHERINE.id,
        answers: ANSWERS,
        language: 'fr-CA',
        recontact_consent: { consent: true, email: 'katherine@johnson.example', location: 'Boston' },
      },
    });
    assert.equal(applied.status, 201, applied.text);
    const search = async (query: string) => (await t.request('GET', `/v1/sourcing/candidates?${query}`, { auth: acme.apiKey })).body.data as any[];

    // The provider flags her license verified; her application's check reads it unverified (self-reported): not found.
    const check = await t.request('GET', `/v1/credential-checks/applications/${applied.body.application_id}`, { auth: acme.apiKey });
    assert.equal(check.body.requirements[0].status, 'unverified', check.text);
    assert.deepEqual(await search('credentials=Registered Nurse'), []);
    // A skill still finds her, and says what her credentials rest on.
    const bySkill = await search('skills=Critical care');
    assert.deepEqual([bySkill[0].profile_user_id, bySkill[0].matched_credentials, bySkill[0].credential_basis], [KATHERINE.id, [], 'credential_check']);

    // A reviewer approves her license scan: the check reads met, and the search counts it.
    const scan = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\nRN LICENSE 777 STATE BOARD\n%%EOF\n');
    const uploaded = await t.request('POST', '/v1/credential-documents', {
      auth: acme.apiKey,
      body: { application_id: applied.body.application_id, requirement: 'rn_license', file_name: 'rn.pdf', content_base64: scan.toString('base64') },
    });
    assert.equal(uploaded.status, 201, uploaded.text);
    const approved = await t.request('POST', `/v1/credential-documents/${uploaded.body.id}/approve`, {
      auth: acme.apiKey,
      body: { expires_at: new Date(Date.now() + 365 * 86_400_000).toISOString() },
    });
    assert.equal(approved.status, 200, approved.text);
    const found = await search('credentials=Registered Nurse');
    assert.deepEqual(
      found.map((c) => [c.profile_user_id, c.matched_credentials, c.credential_basis]),
      [[KATHERINE.id, ['Registered Nurse License'], 'credential_check']],
    );
    assert.equal(found[0].score, 15 + Math.min(10, Math.floor(found[0].total_years)));
  });

  it('sourcing: the invitation carries an RFC 8058 one-click unsubscribe; its signed link withdraws the consent once, a GET never does', async () => {
    const listing = (await t.request('POST', '/v1/listings', { auth: acme.apiKey, body: { title: 'Flight nurse', location: 'Boston', questions: QUESTIONS } }))
      .body;
    const invited = await t.request('POST', '/v1/sourcing/invitations', { auth: acme.apiKey, body: { profile_user_id: KATHERINE.id, listing_id: listing.id } });
    assert.equal(invited.status, 201, invited.text);
    const mail = await waitFor(async () => smtp.received.find((m) => m.envelope.to.includes('katherine@johnson.example')), 'the invitation email');
    assert.equal(mail.parsed.subject, 'Acme vous invite à postuler : Flight nurse');
    assert.equal(mail.parsed.headers.get('content-language'), 'fr-CA');
    assert.match(mail.parsed.text ?? '', /^Acme vous invite à postuler au poste « Flight nurse »\.\n[\s\S]*jusqu’au \w+ \d{1,2} \S+ \d{4}\) :\n/u);
    // The raw header lines (mailparser reshapes List-Unsubscribe into an object).
    const raw = (key: string) =>
      mail.parsed.headerLines
        .find((h) => h.key === key)
        ?.line.replace(/^[^:]+:\s*/, '')
        .replace(/\r?\n\s+/g, '');
    const unsubscribe = /^<(http[^>]+)>$/.exec(raw('list-unsubscribe') ?? '')?.[1];
    assert.ok(unsubscribe, raw('list-unsubscribe'));
    assert.match(unsubscribe, /\/v1\/sourcing\/unsubscribe\?token=[\w-]+\.[\w-]+$/);
    assert.equal(raw('list-unsubscribe-post'), 'List-Unsubscribe=One-Click');
    assert.ok((mail.parsed.text ?? '').includes(unsubscribe), 'the same link, visible in the text');
    assert.ok(!unsubscribe.includes('katherine'), 'the link names the invitation, never the address');
    const path = unsubscribe.slice(unsubscribe.indexOf('/v1/'));
    const search = async () => ((await t.request('GET', '/v1/sourcing/candidates?skills=Critical care', { auth: acme.apiKey })).body.data as any[]).length;

    // Opening the link (a mail scanner does) changes nothing.
    const page = await t.request('GET', path);
    assert.equal(page.status, 200);
    // In the language she applied in, as the invitation.
    assert.match(page.text, /<html lang="fr-CA" dir="ltr">/);
    assert.match(page.text, /Retirer mon consentement/);
    assert.match(page.text, /k\*\*\*@johnson\.example/);
    assert.equal(await search(), 1);
    const tampered = await t.request('POST', `${path.slice(0, -3)}xyz`, {
      rawBody: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(tampered.status, 400);
    assert.equal(tampered.headers.get('x-error-code'), 'link_invalid');
    assert.equal(await search(), 1);

    // The mail client's one-click POST withdraws the consent: out of every search, not invitable, the organization told once.
    const oneClick = () => t.request('POST', path, { rawBody: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    const done = await oneClick();
    assert.equal(done.status, 200, done.text);
    assert.match(done.text, /ne vous invitera plus/);
    assert.equal(await search(), 0);
    const again = await t.request('POST', '/v1/sourcing/invitations', { auth: acme.apiKey, body: { profile_user_id: KATHERINE.id, listing_id: listing.id } });
    assert.equal(again.status, 404);
    assert.equal((await oneClick()).status, 200, 'again: nothing changes');
    const withdrawn = await t.database.db('hi_events').where({ organization_id: acme.organizationId, type: 'sourcing.consent_withdrawn' });
    assert.deepEqual(
      withdrawn.map((e: { data: any }) => [e.data.profile_user_id, e.data.invitation_id, e.data.via]),
      [[KATHERINE.id, invited.body.id, 'unsubscribe_link']],
    );
    assert.match((await t.request('GET', path)).text, /ne vous invitera plus/);
  });
});
