/**
 * Tenant isolation matrix: every operation of the OpenAPI document that takes an id in
 * its path, called by organization A with organization B's ids, answers 404 (exactly as
 * for an id that does not exist) and changes nothing in the database. The ids come from
 * fixtures of every resource kind, created for B through the product itself; a path
 * parameter without a fixture fails the test, so new endpoints join the matrix.
 * Catalog identifiers (action keys, package slugs) are shared by every organization: with
 * the ones B holds, A may change only its own state, never B's, and learns nothing of B's.
 */
import { strict as assert } from 'node:assert';
import { newId } from '../../src/kernel/ids';
import type { Database } from '../../src/platform/database/database';
import { settledLicense } from '../helpers/licensing';
import { ADA, enableProfileApply, GRACE, QUESTIONS, runConnect, waitFor } from '../helpers/profile-flow';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { rememberSecret } from '../helpers/log-capture';
import { deriveKey } from '../../src/platform/security/key-derivation';
import { SignedLinks } from '../../src/features/messages/domain/signed-links';

const ORIGIN = 'https://jobs.tenant.example';
const ANSWERS = { years_experience: 3, work_authorization: true };

/** A shift feed token as the plugin signs it (version 1 of the employee's link). */
const shiftFeedToken = (t: TestHost, organizationId: string, employeeId: string) =>
  new SignedLinks(deriveKey(t.config.secretKey, 'shift-links')).sign({ p: 'shift_feed', o: organizationId, r: `1.${employeeId}` });

interface Operation {
  method: string;
  path: string;
  credentials: string[];
  pathParams: string[];
}

/** Every table, every row: what "changes nothing" is checked against. */
async function dump(db: Database): Promise<string> {
  const tables: { table_name: string }[] = (
    await db.raw(`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`)
  ).rows;
  const out: Record<string, unknown> = {};
  for (const { table_name } of tables) {
    // Connect sessions and idempotency records are per-request bookkeeping, not tenant data;
    // the audit trail records the caller's own attempt in the caller's chain (B's rows are
    // still compared, through dumpOf, since hi_audit_events has an organization_id).
    const bookkeeping = ['hi_oauth_sessions', 'hi_idempotency_keys', 'hi_audit_events', 'hi_audit_heads', 'hi_audit_pending'];
    if (bookkeeping.includes(table_name) || table_name.includes('knex_migrations')) continue;
    out[table_name] = await db(table_name).select().orderByRaw('1');
  }
  return JSON.stringify(out);
}

/** Organization `organizationId`'s rows, in every table that has an organization_id column. */
async function dumpOf(db: Database, organizationId: string): Promise<string> {
  const tables: { table_name: string }[] = (
    await db.raw(`select table_name from information_schema.columns where table_schema = current_schema() and column_name = 'organization_id' order by 1`)
  ).rows;
  const out: Record<string, unknown> = {};
  for (const { table_name } of tables) out[table_name] = await db(table_name).where({ organization_id: organizationId }).orderByRaw('1');
  return JSON.stringify(out);
}

describe('tenant isolation: another organization’s ids', function () {
  this.timeout(120_000);
  let t: TestHost;
  let operations: Operation[];
  const a = { organizationId: '', apiKey: '', listingId: '', candidateToken: '', applicationId: '' };
  const b = {
    organizationId: '',
    apiKey: '',
    listingId: '',
    applicationId: '',
    licenseId: '',
    subscriptionId: '',
    webhookEndpointId: '',
    eventId: '',
    deliveryId: '',
    invoiceId: '',
    connectionId: '',
    runId: '',
    verificationId: '',
    placementId: '',
    timesheetId: '',
    clientInvoiceId: '',
    exportId: '',
    erasureId: '',
    holdId: '',
    documentId: '',
    channelId: '',
    schedulingRequestId: '',
    availabilityCalendarId: '',
    payoutWorkerId: '',
    payoutId: '',
    backgroundCheckId: '',
    shiftId: '',
    jobImportFeedId: '',
    jobImportId: '',
    contractorId: '',
    esignTemplateId: '',
    envelopeId: '',
    sourcingInvitationId: '',
    roleId: '',
    employeeId: '',
    volunteerHoursId: '',
  };
  const B_ACTION = 'background_checks.license_verification';
  const B_PACKAGE = 'schools';
  /** Catalog identifiers in paths: B's, shared by everyone. */
  // external_id: the ATS's own listing ids are per organization; A upserting B's creates A's own.
  // profile_user_id: the provider's id of a person; asking about a candidate only B knows (Grace)
  // answers from A's own records (none) and must leave B's untouched.
  // credential_type: a trust list's type name; A's PUT of B's type makes A's own list.
  const GLOBAL: Record<string, string> = {
    action_key: B_ACTION,
    package_slug: B_PACKAGE,
    external_id: 'b-req-1',
    profile_user_id: GRACE.id,
    credential_type: 'License',
    // A distribution channel's name: B has one of that name (but no sourcing.distribute_jobs license, so its feeds are 404).
    channel: 'indeed',
    // A job board's name in the board applications endpoint: B has no board secret, so its endpoint is 404 like a missing organization's.
    board: 'indeed',
  };
  const B_TRUSTED_ISSUER = 'did:web:tenant-b.example';
  /** Organization B's id for each tenant-scoped path parameter, and an id of the same kind that exists nowhere. */
  let fixtures: Record<string, { other: string; missing: string }>;

  before(async () => {
    t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0', WEBHOOK_ALLOWED_INTERNAL_HOSTS: '127.0.0.1' } });
    for (const [org, name] of [
      [a, 'Tenant A'],
      [b, 'Tenant B'],
    ] as const) {
      const created = await t.createOrganization(name);
      org.organizationId = created.organizationId;
      org.apiKey = created.apiKey;
      org.listingId = (await t.host.listings.create({ organizationId: org.organizationId, title: `${name} role`, questions: QUESTIONS })).id;
      await enableProfileApply(t, org.apiKey, [ORIGIN]);
      const license = await t.request('POST', '/v1/integrations/licenses/profile.accept_application/activate', { auth: org.apiKey });
      assert.ok(license.status === 202 || license.status === 200, license.text);
      assert.equal((await settledLicense(t, org.apiKey, license.body.id)).status, 'active');
      const run = await runConnect(t, { organizationId: org.organizationId, listingId: org.listingId, origin: ORIGIN, button: `Authorize as ${ADA.name}` });
      assert.equal(run.result?.message.type, 'profile-apply:authorized');
      if (org === a) a.candidateToken = run.result!.message.candidate_token;
      const applied = await t.request('POST', `/v1/opportunities/listings/${org.listingId}/applications/profile`, {
        auth: org.apiKey,
        // A contact email (B's is matched by board dedupe and found by erasure): never A's to see.
        body: { profile_user_id: ADA.id, cover_letter: 'fixture', answers: ANSWERS, contact: { email: `ada@${name.toLowerCase().replace(' ', '-')}.example` } },
      });
      assert.equal(applied.status, 201, applied.text);
      org.applicationId = applied.body.application_id;
    }
    // B holds an action à la carte and a package.
    const activated = await t.request('POST', `/v1/integrations/licenses/${B_ACTION}/activate`, { auth: b.apiKey });
    assert.equal(activated.status, 202, activated.text);
    b.licenseId = activated.body.id;
    const subscribed = await t.request('POST', `/v1/integrations/packages/${B_PACKAGE}/subscribe`, { auth: b.apiKey });
    assert.ok(subscribed.status < 300, subscribed.text);
    b.subscriptionId = subscribed.body.id;
    await waitFor(
      async () =>
        (await t.database.db('hi_licenses').where({ organization_id: b.organizationId }).whereNot({ status: 'active' })).length === 0 &&
        (await t.database.db('hi_licenses').where({ organization_id: b.organizationId })).length > 1,
      "B's licenses active",
    );
    await waitFor(
      async () => (await t.database.db('hi_subscriptions').where({ organization_id: b.organizationId, status: 'active' })).length === 1,
      "B's subscription active",
    );
    const upserted = await t.request('PATCH', `/v1/listings/${b.listingId}`, { auth: b.apiKey, body: { external_id: 'b-req-1' } });
    assert.equal(upserted.status, 200, upserted.text);
    // B has a webhook endpoint, an event and its delivery (to a path that answers 404: failed at once).
    const endpoint = await t.request('POST', '/v1/webhook_endpoints', { auth: b.apiKey, body: { url: `${t.baseUrl}/no-such-receiver` } });
    assert.equal(endpoint.status, 201, endpoint.text);
    rememberSecret(endpoint.body.secret);
    b.webhookEndpointId = endpoint.body.id;
    const testEvent = await t.request('POST', `/v1/webhook_endpoints/${b.webhookEndpointId}/test`, { auth: b.apiKey });
    assert.equal(testEvent.status, 202, testEvent.text);
    b.eventId = testEvent.body.id;
    b.deliveryId = (
      await waitFor(
        async () => await t.database.db('hi_webhook_deliveries').where({ event_id: b.eventId }).whereNot({ status: 'pending' }).first(),
        "B's delivery settled",
      )
    ).id;
    // Let background work (imports, deliveries) settle so that "nothing changed" is stable.
    await waitFor(async () => (await t.database.db('hi_profile_applications').whereNull('delivered_at')).length === 0, 'deliveries');
    await waitFor(async () => (await t.database.db('hi_outbox').whereNull('dispatched_at')).length === 0, 'an empty outbox');
    // B has an invoice: its billing test clock runs past its first renewal.
    const now = Date.now();
    const clock = `/v1/billing/operator/organizations/${b.organizationId}/test_clock`;
    assert.equal((await t.request('POST', clock, { auth: t.operatorKey, body: { frozen_time: new Date(now).toISOString() } })).status, 200);
    assert.equal(
      (await t.request('POST', `${clock}/advance`, { auth: t.operatorKey, body: { to: new Date(now + 40 * 86_400_000).toISOString() } })).status,
      200,
    );
    b.invoiceId = (await t.database.db('hi_invoices').where({ organization_id: b.organizationId }).first()).id;
    // B has a connection and an action run (a hired candidate synced through the test-mode sandbox).
    const connection = await t.request('POST', '/v1/integrations/connections', {
      auth: b.apiKey,
      body: { connector: 'smtp', settings: { host: 'smtp.b.example', port: 587, from_email: 'jobs@b.example' }, credentials: {} },
    });
    assert.equal(connection.status, 201, connection.text);
    b.connectionId = connection.body.id;
    const trust = await t.request('PUT', '/v1/credential-trust/License', { auth: b.apiKey, body: { issuers: [B_TRUSTED_ISSUER] } });
    assert.equal(trust.status, 200, trust.text);
    // B has a credential document awaiting review (its listing requires a license).
    const requirement = { key: 'rn_license', label: 'RN license', credential_type: 'License' };
    // And orders a background check when an application arrives (its policy: A can neither read nor change it).
    const backgroundCheck = { package: 'b_standard', work_location: { country: 'DE', city: 'Berlin' } };
    const required = await t.request('PATCH', `/v1/listings/${b.listingId}`, {
      auth: b.apiKey,
      body: { requirements: [requirement], background_check: backgroundCheck },
    });
    assert.equal(required.status, 200, required.text);
    const document = await t.request('POST', '/v1/credential-documents', {
      auth: b.apiKey,
      body: { application_id: b.applicationId, requirement: 'rn_license', file_name: 'b.pdf', content_base64: Buffer.from('%PDF-1.7 B').toString('base64') },
    });
    assert.equal(document.status, 201, document.text);
    b.documentId = document.body.id;
    const channel = await t.request('POST', '/v1/job-distribution/channels', { auth: b.apiKey, body: { name: 'indeed' } });
    assert.equal(channel.status, 201, channel.text);
    b.channelId = channel.body.id;
    await t.request('POST', '/v1/integrations/licenses/hris.employee_sync/activate', { auth: b.apiKey });
    await waitFor(
      async () =>
        (await t.database.db('hi_licenses').where({ organization_id: b.organizationId, action_key: 'hris.employee_sync', status: 'active' })).length === 1,
      "B's HRIS license active",
    );
    const hired = await t.request('POST', '/host/v1/hooks/candidate.hired', {
      auth: t.operatorKey,
      body: { organization_id: b.organizationId, payload: { candidate_id: 'cand_b1', candidate: { name: 'Bea', email: 'bea@b.example' } } },
    });
    assert.equal(hired.status, 200, hired.text);
    b.runId = (
      await waitFor(
        async () => await t.database.db('hi_action_runs').where({ organization_id: b.organizationId, status: 'succeeded' }).first(),
        "B's action run",
      )
    ).id;
    // B sent a verification code (through the test-mode sandbox SMS connector).
    await t.request('POST', '/v1/integrations/licenses/sms.two_factor_auth/activate', { auth: b.apiKey });
    await waitFor(
      async () =>
        (await t.database.db('hi_licenses').where({ organization_id: b.organizationId, action_key: 'sms.two_factor_auth', status: 'active' })).length === 1,
      "B's verification license active",
    );
    const verification = await t.request('POST', '/v1/verifications', { auth: b.apiKey, body: { channel: 'sms', to: '+4915199990000' } });
    assert.equal(verification.status, 201, verification.text);
    b.verificationId = verification.body.id;
    // B's scheduling request, written directly (a real one needs a CalDAV server; scheduling-requests.test.ts makes them).
    b.schedulingRequestId = newId('sreq');
    await t.database.db('hi_scheduling_requests').insert({
      id: b.schedulingRequestId,
      organization_id: b.organizationId,
      application_id: b.applicationId,
      title: 'Interview',
      candidate_name: 'Ada Lovelace',
      candidate_email: 'ada@example.com',
      language: 'en',
      timezone: 'UTC',
      duration_minutes: 60,
      window_start: new Date('2030-01-01T00:00:00Z'),
      window_end: new Date('2030-01-02T00:00:00Z'),
      interviewers: JSON.stringify([]),
      organizer_name: 'B',
      organizer_email: 'jobs@b.example',
      status: 'open',
      link_expires_at: new Date('2030-01-09T00:00:00Z'),
      created_at: new Date(),
      updated_at: new Date(),
    });
    // B's followed interviewer calendar, written directly (the availability sync enrolls real ones; scheduling-requests.test.ts).
    b.availabilityCalendarId = `acal_${'b'.repeat(24)}`;
    await t.database.db('hi_availability_calendars').insert({
      id: b.availabilityCalendarId,
      organization_id: b.organizationId,
      connection_id: b.connectionId,
      email: 'grace@b.example',
      created_at: new Date(),
    });
    // B's shift, written directly (B holds no scheduling.shift_scheduling: its feed links answer 404; shifts.test.ts publishes real ones).
    b.shiftId = newId('shf');
    await t.database.db('hi_shifts').insert({
      id: b.shiftId,
      organization_id: b.organizationId,
      employee_id: 'emp_b',
      employee_name: 'Grace Hopper',
      employee_email: 'grace@example.com',
      timezone: 'UTC',
      language: 'en',
      location: 'B Diner',
      starts_at: new Date('2030-01-01T09:00:00Z'),
      ends_at: new Date('2030-01-01T17:00:00Z'),
      organizer_name: 'B',
      organizer_email: 'shifts@b.example',
      status: 'scheduled',
      sequence: 0,
      response: 'pending',
      delivery_status: 'sent',
      created_at: new Date(),
      updated_at: new Date(),
    });
    // B's e-signature template (API) and envelope (written directly: a real one is sent by email, esign.test.ts makes them).
    const template = await t.request('POST', '/v1/esign/templates', {
      auth: b.apiKey,
      body: { kind: 'agreement', name: 'NDA', title: 'NDA', body: 'Between {{organization.name}} and {{candidate.name}}.' },
    });
    assert.equal(template.status, 201, template.text);
    b.esignTemplateId = template.body.id;
    b.envelopeId = newId('env');
    await t.database.db('hi_esign_envelopes').insert({
      id: b.envelopeId,
      organization_id: b.organizationId,
      kind: 'agreement',
      reference_id: 'nda_b',
      title: 'NDA',
      document_text: 'Between B and Ada.',
      document: Buffer.from('%PDF-1.7'),
      document_sha256: '0'.repeat(64),
      signer_name: 'Ada Lovelace',
      signer_email: 'ada@example.com',
      language: 'en',
      status: 'sent',
      events: JSON.stringify([]),
      expires_at: new Date('2030-01-01T00:00:00Z'),
      created_at: new Date(),
      updated_at: new Date(),
    });
    // B placed a worker and keeps a timesheet (payroll.time_tracking).
    await t.request('POST', '/v1/integrations/licenses/payroll.time_tracking/activate', { auth: b.apiKey });
    await waitFor(
      async () =>
        (await t.database.db('hi_licenses').where({ organization_id: b.organizationId, action_key: 'payroll.time_tracking', status: 'active' })).length === 1,
      "B's time tracking license active",
    );
    const placement = await t.request('POST', '/v1/timesheets/placements', {
      auth: b.apiKey,
      body: {
        worker_id: 'wrk_b',
        worker_name: 'B Worker',
        client_company_id: 'cli_b',
        client_name: 'B Client',
        client_contact: { name: 'B Contact', email: 'contact@b.example' },
        bill_rate: 4000,
        pay_rate: 2500,
      },
    });
    assert.equal(placement.status, 201, placement.text);
    b.placementId = placement.body.id;
    const timesheet = await t.request('POST', '/v1/timesheets', { auth: b.apiKey, body: { placement_id: b.placementId, period_start: '2026-11-23' } });
    assert.equal(timesheet.status, 201, timesheet.text);
    b.timesheetId = timesheet.body.id;
    // B has a payout worker (its onboarding failed connection_missing: B has no payouts connection, the worker stays)
    // and a payout row for it (written directly: paying needs a worker whose KYC a Stripe webhook completed).
    await t.request('POST', '/v1/integrations/licenses/payouts.kyc_verification/activate', { auth: b.apiKey });
    await waitFor(
      async () =>
        (await t.database.db('hi_licenses').where({ organization_id: b.organizationId, action_key: 'payouts.kyc_verification', status: 'active' })).length ===
        1,
      "B's KYC license active",
    );
    const payoutWorker = await t.request('POST', '/v1/payouts/workers', {
      auth: b.apiKey,
      body: { reference: 'cand_b1', email: 'bea@b.example', country: 'US' },
    });
    assert.equal(payoutWorker.body.error?.code, 'connection_missing', payoutWorker.text);
    b.payoutWorkerId = (await t.database.db('hi_payout_workers').where({ organization_id: b.organizationId }).first()).id;
    b.payoutId = newId('pout');
    await t.database.db('hi_payouts').insert({
      id: b.payoutId,
      organization_id: b.organizationId,
      worker_id: b.payoutWorkerId,
      reference: 'shift_b1',
      source: 'api',
      amount: 1000,
      fee: 0,
      currency: 'USD',
      status: 'pending',
      created_at: new Date(),
      updated_at: new Date(),
    });
    // B's client invoice (a draft needs approved hours: written directly, as B's own row).
    b.clientInvoiceId = newId('cinv');
    await t.database.db('hi_client_invoices').insert({
      id: b.clientInvoiceId,
      organization_id: b.organizationId,
      client_company_id: 'cli_b',
      client_name: 'B Client',
      contact_name: 'B Contact',
      contact_email: 'contact@b.example',
      period_start: '2026-11-01',
      period_end: '2026-11-30',
      status: 'draft',
      currency: 'USD',
      lines: '[]',
      total_cents: 0,
      created_at: new Date(),
    });
    // B ordered a background check (through the test-mode sandbox vendor).
    await t.request('POST', '/v1/integrations/licenses/background_checks.run_check/activate', { auth: b.apiKey });
    await waitFor(
      async () =>
        (await t.database.db('hi_licenses').where({ organization_id: b.organizationId, action_key: 'background_checks.run_check', status: 'active' }))
          .length === 1,
      "B's background check license active",
    );
    const ordered = await t.request('POST', '/host/v1/hooks/background_check.requested', {
      auth: t.operatorKey,
      body: {
        organization_id: b.organizationId,
        payload: {
          check_id: 'chk_b1',
          candidate_id: 'cand_b1',
          candidate: { email: 'bea@b.example' },
          package: 'tasker_standard',
          work_location: { country: 'US', state: 'CA' },
        },
      },
    });
    b.backgroundCheckId = ordered.body.outcomes.find((o: any) => o.handler === 'background-check-order')?.result?.background_check_id;
    assert.ok(b.backgroundCheckId, ordered.text);
    // B's data-rights requests: Grace authorized (B only) and was erased; an export of Ada and a hold on her.
    const grace = await runConnect(t, { organizationId: b.organizationId, listingId: b.listingId, origin: ORIGIN, button: `Authorize as ${GRACE.name}` });
    assert.equal(grace.result?.message.type, 'profile-apply:authorized');
    const erasure = await t.request('POST', `/v1/candidates/${GRACE.id}/erasure`, { auth: b.apiKey, body: {} });
    assert.equal(erasure.status, 202, erasure.text);
    b.erasureId = erasure.body.id;
    const exported = await t.request('POST', `/v1/candidates/${ADA.id}/exports`, { auth: b.apiKey, body: {} });
    assert.equal(exported.status, 202, exported.text);
    b.exportId = exported.body.id;
    await waitFor(
      async () =>
        (await t.database.db('hi_candidate_erasures').where({ id: b.erasureId }).whereNot({ status: 'pending' })).length === 1 &&
        (await t.database.db('hi_candidate_exports').where({ id: b.exportId }).whereNot({ status: 'pending' })).length === 1,
      "B's erasure and export done",
    );
    const hold = await t.request('POST', `/v1/candidates/${ADA.id}/legal_holds`, { auth: b.apiKey, body: { reason: 'litigation' } });
    assert.equal(hold.status, 201, hold.text);
    b.holdId = hold.body.id;
    // B's contractor for the 1099 export (written directly: saving one needs the payroll.contractor_export license).
    b.contractorId = newId('pctr');
    await t.database.db('hi_payroll_contractors').insert({
      id: b.contractorId,
      organization_id: b.organizationId,
      worker_id: 'wrk_b',
      email: 'b-contractor@example.com',
      legal_name: 'B Contractor',
      tin_type: 'ssn',
      tin_last4: '1234',
      address_line1: '1 B Street',
      city: 'Bville',
      region: 'CA',
      postal_code: '94000',
      country: 'US',
      created_at: new Date(),
      updated_at: new Date(),
    });
    // B's role and employee (employees' credential requirements).
    b.roleId = newId('role');
    b.employeeId = newId('emp');
    await t.database
      .db('hi_roles')
      .insert({ id: b.roleId, organization_id: b.organizationId, name: 'B nurse', requirements: '[]', created_at: new Date(), updated_at: new Date() });
    await t.database.db('hi_employees').insert({
      id: b.employeeId,
      organization_id: b.organizationId,
      external_id: 'hr-b',
      name: 'B Employee',
      email: 'b-employee@example.com',
      role_ids: JSON.stringify([b.roleId]),
      created_at: new Date(),
      updated_at: new Date(),
    });
    // B's job import feed and one finished import (written directly: an import needs a feed server).
    b.jobImportFeedId = newId('jfeed');
    b.jobImportId = newId('jimp');
    await t.database.db('hi_job_import_feeds').insert({
      id: b.jobImportFeedId,
      organization_id: b.organizationId,
      url: 'https://ats.b.example/jobs.xml',
      format: 'xml',
      interval_minutes: 60,
      next_run_at: new Date('2030-01-01T00:00:00Z'),
      created_at: new Date(),
      updated_at: new Date(),
    });
    await t.database.db('hi_job_imports').insert({
      id: b.jobImportId,
      organization_id: b.organizationId,
      feed_id: b.jobImportFeedId,
      trigger: 'api',
      status: 'succeeded',
      created_at: new Date(),
      finished_at: new Date(),
    });
    // B's sourcing invitation (sending one needs the license and a mail server: written directly, as B's own row).
    // B logged a volunteer's hours (written directly; A holds the volunteer license, so A's lookups reach the 404).
    await t.request('POST', '/v1/integrations/licenses/hris.volunteer_management/activate', { auth: a.apiKey });
    b.volunteerHoursId = newId('vhr');
    await t.database.db('hi_volunteer_hours').insert({
      id: b.volunteerHoursId,
      organization_id: b.organizationId,
      volunteer_id: 'cand_b_vol',
      volunteer_name: 'B Volunteer',
      volunteer_email: 'vol@b.example',
      date: '2026-11-02',
      minutes: 60,
      created_at: new Date(),
    });
    b.sourcingInvitationId = newId('sinv');
    await t.database.db('hi_sourcing_invitations').insert({
      id: b.sourcingInvitationId,
      organization_id: b.organizationId,
      listing_id: b.listingId,
      profile_user_id: ADA.id,
      created_at: new Date(),
      expires_at: new Date(Date.now() + 86_400_000),
    });
    // Every event B's endpoint hears (the invoice's, and any other recorded after the endpoint
    // was created) goes to the receiver that answers 404 and settles before anything is compared.
    await waitFor(async () => (await t.database.db('hi_outbox').whereNull('dispatched_at')).length === 0, 'an empty outbox');
    await waitFor(async () => (await t.database.db('hi_webhook_deliveries').where({ status: 'pending' })).length === 0, 'every webhook delivery settled');
    fixtures = {
      invoice_id: { other: b.invoiceId, missing: newId('inv') },
      organization_id: { other: b.organizationId, missing: newId('org') },
      listing_id: { other: b.listingId, missing: newId('listing') },
      application_id: { other: b.applicationId, missing: newId('app') },
      // The widget's content hash: not a tenant's id, but a path parameter all the same.
      hash: { other: '0123456789ab', missing: 'ba9876543210' },
      file: { other: 'es.0123456789ab.json', missing: 'es.ba9876543210.json' },
      webhook_endpoint_id: { other: b.webhookEndpointId, missing: newId('we') },
      delivery_id: { other: b.deliveryId, missing: newId('whd') },
      event_id: { other: b.eventId, missing: newId('evt') },
      connection_id: { other: b.connectionId, missing: newId('conn') },
      run_id: { other: b.runId, missing: newId('run') },
      verification_id: { other: b.verificationId, missing: newId('ver') },
      placement_id: { other: b.placementId, missing: newId('plc') },
      timesheet_id: { other: b.timesheetId, missing: newId('tms') },
      client_invoice_id: { other: b.clientInvoiceId, missing: newId('cinv') },
      // B's data-rights requests (under Grace's path for A: B's ids are 404 whoever they name).
      export_id: { other: b.exportId, missing: newId('cex') },
      erasure_id: { other: b.erasureId, missing: newId('cer') },
      hold_id: { other: b.holdId, missing: newId('hold') },
      document_id: { other: b.documentId, missing: newId('cdoc') },
      channel_id: { other: b.channelId, missing: newId('dch') },
      request_id: { other: b.schedulingRequestId, missing: newId('sreq') },
      calendar_id: { other: b.availabilityCalendarId, missing: `acal_${'m'.repeat(24)}` },
      worker_id: { other: b.payoutWorkerId, missing: newId('wkr') },
      payout_id: { other: b.payoutId, missing: newId('pout') },
      background_check_id: { other: b.backgroundCheckId, missing: newId('bgc') },
      shift_id: { other: b.shiftId, missing: newId('shf') },
      // A feed link is signed for an organization and an employee: B's (no license: 404) and one of an organization that does not exist.
      feed_token: { other: shiftFeedToken(t, b.organizationId, 'emp_b'), missing: shiftFeedToken(t, newId('org'), 'emp_b') },
      feed_id: { other: b.jobImportFeedId, missing: newId('jfeed') },
      import_id: { other: b.jobImportId, missing: newId('jimp') },
      contractor_id: { other: b.contractorId, missing: newId('pctr') },
      template_id: { other: b.esignTemplateId, missing: newId('etpl') },
      envelope_id: { other: b.envelopeId, missing: newId('env') },
      invitation_id: { other: b.sourcingInvitationId, missing: newId('sinv') },
      role_id: { other: b.roleId, missing: newId('role') },
      employee_id: { other: b.employeeId, missing: newId('emp') },
      hours_id: { other: b.volunteerHoursId, missing: newId('vhr') },
      // An API key's prefix (DELETE /v1/organization/api_keys/{prefix}).
      prefix: { other: (await t.database.db('hi_api_keys').where({ organization_id: b.organizationId }).first()).prefix, missing: 'hik_missingprfx' },
    };
    const doc = (await t.request('GET', '/v1/openapi.json')).body;
    operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        credentials: (op.security ?? []).flatMap((s: Record<string, unknown>) => Object.keys(s)),
        pathParams: (op.parameters ?? []).filter((p: { in: string }) => p.in === 'path').map((p: { name: string }) => p.name),
      })),
    );
  });
  after(() => t?.close());

  /** A body the operation would accept for the caller's own resources, so only the id can be the problem. */
  function bodyFor(operation: Operation): unknown {
    if (operation.method === 'GET' || operation.method === 'DELETE') return undefined;
    if (operation.path.endsWith('/applications/profile')) return { profile_user_id: ADA.id, cover_letter: 'cross-tenant', answers: ANSWERS };
    // Reporting a hire of B's application: as unknown as a missing one.
    if (operation.path.endsWith('/hires')) return { application_id: b.applicationId };
    if (operation.path.endsWith('/{document_id}/approve')) return { expires_at: '2030-01-01T00:00:00Z' };
    if (operation.path.endsWith('/{document_id}/reject')) return { reason: 'cross-tenant' };
    if (operation.path.endsWith('/{timesheet_id}/entries')) return { entries: [] };
    if (operation.path.endsWith('/shifts/{shift_id}')) return { notes: 'cross-tenant' };
    if (operation.path.endsWith('/hours/{hours_id}')) return { minutes: 30, reason: 'cross-tenant' };
    if (operation.path.endsWith('/hours/{hours_id}/void')) return { reason: 'cross-tenant' };
    if (operation.path.endsWith('/{employee_id}/upload-links')) return { role_id: b.roleId, requirement: 'rn_license' };
    if (operation.path.endsWith('/{employee_id}/credentials'))
      return { role_id: b.roleId, requirement: 'rn_license', credential: { format: 'vc+jwt', credential: 'eyJhbGciOiJFZERTQSJ9.e30.AA' } };
    return {};
  }

  const tenantScoped = (o: Operation) => o.pathParams.some((p) => !(p in GLOBAL)) && !o.credentials.includes('operatorApiKey');
  const globalOnly = (o: Operation) => o.pathParams.length > 0 && o.pathParams.every((p) => p in GLOBAL) && o.credentials.includes('organizationApiKey');
  /** B's ids that must never appear in what A gets back. */
  const bIds = () => [
    B_TRUSTED_ISSUER,
    b.organizationId,
    b.listingId,
    b.applicationId,
    b.licenseId,
    b.subscriptionId,
    b.webhookEndpointId,
    b.eventId,
    b.deliveryId,
    b.invoiceId,
    b.connectionId,
    b.runId,
    b.verificationId,
    b.placementId,
    b.timesheetId,
    b.clientInvoiceId,
    b.exportId,
    b.erasureId,
    b.holdId,
    b.channelId,
    b.schedulingRequestId,
    b.availabilityCalendarId,
    b.payoutWorkerId,
    b.payoutId,
    b.backgroundCheckId,
    b.shiftId,
    b.jobImportFeedId,
    b.jobImportId,
    b.esignTemplateId,
    b.envelopeId,
    b.sourcingInvitationId,
    b.roleId,
    b.employeeId,
    b.volunteerHoursId,
  ];

  function fill(operation: Operation, pick: 'other' | 'missing'): string {
    return (
      operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
        if (name in GLOBAL) return GLOBAL[name]!;
        // The caller's own organization in a path that names one (public listing pages): the listing is B's.
        if (name === 'organization_id' && operation.pathParams.includes('listing_id')) return a.organizationId;
        const fixture = fixtures[name];
        assert.ok(fixture, `no fixture for path parameter {${name}} of ${operation.method} ${operation.path}: add one of organization B's`);
        return encodeURIComponent(fixture[pick]);
      }) + (operation.path.endsWith('/download') ? `?expires=${Math.floor(Date.now() / 1000) + 600}&signature=${'A'.repeat(43)}` : '')
    );
  }

  it('covers every operation that takes an id in its path', () => {
    const scoped = operations.filter(tenantScoped);
    for (const o of operations.filter((o) => o.pathParams.length > 0 && !tenantScoped(o) && !globalOnly(o))) {
      assert.ok(o.credentials.includes('operatorApiKey'), `${o.method} ${o.path} is in neither part of the matrix`);
    }
    assert.ok(scoped.length >= 4, `operations with ids: ${scoped.map((o) => `${o.method} ${o.path}`).join(', ')}`);
  });

  it('answers 404, as for a missing id, and changes nothing: organization API key, candidate session, public', async () => {
    const results: string[] = [];
    for (const operation of operations.filter(tenantScoped)) {
      const credentials: Array<[string, string | undefined]> = [];
      if (operation.credentials.length === 0) credentials.push(['public', undefined]);
      if (operation.credentials.includes('organizationApiKey')) credentials.push(['organization API key', a.apiKey]);
      if (operation.credentials.includes('candidateSession')) credentials.push(['candidate session', a.candidateToken]);
      for (const [label, auth] of credentials) {
        const before = await dump(t.database.db);
        const other = await t.request(operation.method, fill(operation, 'other'), { auth, body: bodyFor(operation) });
        const after = await dump(t.database.db);
        const missing = await t.request(operation.method, fill(operation, 'missing'), { auth, body: bodyFor(operation) });
        const what = `${label}: ${operation.method} ${operation.path} with B's ids → ${other.status} ${other.text.slice(0, 160)}`;
        results.push(what);
        assert.equal(after, before, `${what} changed the database`);
        for (const id of [b.listingId, b.applicationId])
          assert.ok(!other.text.includes(id) || fill(operation, 'other').includes(id), `${what} disclosed ${id}`);
        // Indistinguishable from an id that does not exist: same status, same error code.
        assert.equal(other.status, missing.status, `${what}; a missing id answers ${missing.status}`);
        assert.equal(other.body?.error?.code, missing.body?.error?.code, what);
        // A candidate session is bound to A's listing and candidate: any other listing is refused before lookup.
        if (label === 'candidate session') assert.ok(other.status === 404 || other.status === 403, what);
        else assert.equal(other.status, 404, what);
      }
    }
    assert.ok(results.length >= 4, results.join('\n'));
  });

  it('with the catalog identifiers B holds, A changes only its own state and sees nothing of B', async () => {
    const results: string[] = [];
    for (const operation of operations.filter(globalOnly)) {
      const before = await dumpOf(t.database.db, b.organizationId);
      const response = await t.request(operation.method, fill(operation, 'other'), { auth: a.apiKey, body: bodyFor(operation) });
      const what = `${operation.method} ${fill(operation, 'other')} → ${response.status} ${response.text.slice(0, 160)}`;
      results.push(what);
      assert.ok(response.status < 500, what);
      for (const id of bIds()) assert.ok(!response.text.includes(id), `${what} disclosed ${id}`);
      // Let A's own background work run, then B must be exactly as it was.
      await waitFor(async () => (await t.database.db('hi_outbox').whereNull('dispatched_at')).length === 0, 'an empty outbox');
      await waitFor(
        async () => (await t.database.db('hi_licenses').where({ organization_id: a.organizationId, status: 'provisioning' })).length === 0,
        "A's provisioning",
      );
      assert.equal(await dumpOf(t.database.db, b.organizationId), before, `${what} changed organization B`);
    }
    assert.ok(results.length >= 4, results.join('\n'));
    // A's lists, filtered by B's action, hold nothing of B's.
    for (const path of [
      '/v1/integrations/licenses',
      `/v1/integrations/licenses?action_key=${B_ACTION}`,
      '/v1/integrations/subscriptions',
      `/v1/integrations/billing/preview?activate=${B_ACTION}`,
      '/v1/organization',
      '/v1/organization/settings',
      '/v1/esign/settings',
    ]) {
      const response = await t.request('GET', path, { auth: a.apiKey });
      assert.ok(response.status < 500, `${path} → ${response.status}`);
      for (const id of bIds()) assert.ok(!response.text.includes(id), `${path} disclosed ${id}`);
    }
  });

  it('pages of A’s own listing never reach B’s applications through a cursor', async () => {
    const page = await t.request('GET', `/v1/opportunities/listings/${a.listingId}/applications?starting_after=${b.applicationId}`, { auth: a.apiKey });
    const missing = await t.request('GET', `/v1/opportunities/listings/${a.listingId}/applications?starting_after=${newId('app')}`, { auth: a.apiKey });
    assert.equal(page.status, missing.status, page.text);
    assert.equal(page.body?.error?.code, missing.body?.error?.code);
    // The error may echo the cursor it was given, and nothing else of B's.
    const echoed = page.text.replaceAll(b.applicationId, '');
    for (const id of [b.organizationId, b.listingId, ADA.id]) assert.ok(!echoed.includes(id), page.text);
  });

  it('the connect popup will not start for A with B’s listing', async () => {
    const query = new URLSearchParams({ organization_id: a.organizationId, listing_id: b.listingId, origin: ORIGIN });
    const before = await dump(t.database.db);
    const response = await fetch(`${t.baseUrl}/v1/connect/profile?${query}`, { redirect: 'manual' });
    const html = await response.text();
    assert.notEqual(response.status, 302, 'no redirect to the provider');
    assert.match(html, /listing_unavailable/);
    assert.equal(await dump(t.database.db), before);
  });
});
