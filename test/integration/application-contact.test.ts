/**
 * Applications people can be reached at (issues 25 and 28): a profile application's `contact`
 * (validated, stored lower-cased, in the API, the pipeline and application.submitted in the
 * board applicants' shape); a listing's background-check policy, which makes the email
 * required and orders the vendor check when an application arrives (off the request, once per
 * application) through a Checkr connection on Prism (test/fixtures/checkr), decided by the
 * vendor's signed webhook; no email, no order and a stable reason; board applications
 * deduplicated against profile applications by email, and the reverse flagged.
 */
import { strict as assert } from 'node:assert';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { checkrSignature } from '../../src/connectors/checkr/checkr-webhook';
import { PACKAGE_ROOT } from '../../src/platform/manifest/manifest';
import { activateLicense } from '../helpers/hooks';
import { startPrism, type PrismServer } from '../helpers/prism';
import { ADA, enableProfileApply, GRACE, runConnect, waitFor } from '../helpers/profile-flow';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { testLogger } from '../helpers/log-capture';
import { usingRedis } from '../helpers/redis';
import { skipBecause } from '../helpers/skip';
import { queueDefinitions } from '../../src/composition/infrastructure';
import { loadManifest } from '../../src/platform/manifest/manifest';
import { BullmqJobQueue } from '../../src/platform/queue/bullmq-queue';
import { closeRedis, createRedis } from '../../src/platform/queue/redis';
import { ReconciliationSweep } from '../../src/features/operations/domain/reconciliation-sweep';
import { BackgroundCheckOrderReconciler } from '../../src/features/background-checks/storage/background-check-order-reconciler';

const SPEC = path.join(PACKAGE_ROOT, 'test/fixtures/checkr/checkr.openapi.yaml');
const KEY = '83ebeabdec09f6670863766f792ead24d61fe3f9';
const ORIGIN = 'https://careers.acme.example';
// Prism answers its examples: Checkr's candidate for every order.
const VENDOR_CANDIDATE = 'e44aa283528e6fde7d542194';
const POLICY = { package: 'tasker_standard', purpose: 'standard', work_location: { country: 'US', state: 'CA', city: 'San Francisco' } };

describe('applications: contact, background checks on submission, board dedupe', function () {
  this.timeout(60_000);
  let prism: PrismServer;
  let t: TestHost;
  let acme: { organizationId: string; apiKey: string };
  let globex: { organizationId: string; apiKey: string };
  let checked: string;
  let open: string;
  let adaApplication: string;
  let boardSecret: string;
  let connectionId: string;
  const apply = (listing: string, body: object) => t.request('POST', `/v1/opportunities/listings/${listing}/applications/profile`, { auth: acme.apiKey, body });
  const application = (id: string, auth = acme.apiKey) => t.request('GET', `/v1/opportunities/applications/${id}`, { auth });
  /** The vendor's signed webhook: the report on the candidate came back clear. */
  const reportClear = (eventId: string, reportId: string, createdAt: string) => {
    const body = JSON.stringify({
      id: eventId,
      object: 'event',
      type: 'report.completed',
      created_at: createdAt,
      data: { object: { id: reportId, object: 'report', status: 'complete', result: 'clear', candidate_id: VENDOR_CANDIDATE } },
    });
    return t.request('POST', `/v1/background-checks/vendor-events?organization_id=${acme.organizationId}`, {
      rawBody: body,
      headers: { 'content-type': 'application/json', 'X-Checkr-Signature': checkrSignature(body, KEY) },
    });
  };
  const delivered = (id: string) =>
    waitFor(async () => (await t.database.db('hi_profile_applications').where({ id }).whereNotNull('delivered_at').first()) ?? undefined, `delivery of ${id}`);
  const events = async (type: string) =>
    (await t.database.db('hi_events').where({ organization_id: acme.organizationId, type }).orderBy('sequence')).map((e: any) =>
      typeof e.data === 'string' ? JSON.parse(e.data) : e.data,
    );
  let sequence = 0;
  const board = (listing: string, email: string) => {
    const raw = JSON.stringify({
      id: `indeed-${++sequence}`,
      job: { jobId: listing },
      applicant: { fullName: 'From A Board', email, phoneNumber: '+15555550199' },
      questions: [],
    });
    const id = `msg_contact_${sequence}`;
    const at = new Date();
    return t.request('POST', `/v1/board-applications/${acme.organizationId}/indeed`, {
      rawBody: raw,
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': new Webhook(boardSecret).sign(id, at, raw),
      },
    });
  };
  /** The order job's answer, read back from BullMQ (with Redis; in-process queues keep none). */
  const orderJob = async (applicationId: string, jobId: string) => {
    if (!t.config.redisUrl) return undefined;
    const { Queue } = await import('bullmq');
    const { default: Redis } = await import('ioredis');
    const connection = new Redis(t.config.redisUrl, { maxRetriesPerRequest: null });
    const queue = new Queue('background-check-orders', { connection, prefix: t.config.queuePrefix });
    try {
      await queue.add('order', { organization_id: acme.organizationId, application_id: applicationId }, { jobId });
      return await waitFor(async () => {
        const job = await queue.getJob(jobId);
        return job && (await job.isCompleted()) ? job.returnvalue : undefined;
      }, `order job ${jobId}`);
    } finally {
      await queue.close();
      await connection.quit();
    }
  };

  before(async function () {
    this.timeout(180_000);
    prism = await startPrism(SPEC);
    t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
    acme = await t.createOrganization('Acme Rides');
    globex = await t.createOrganization('Globex');
    const connection = await t.request('POST', '/v1/integrations/connections', {
      auth: acme.apiKey,
      body: { connector: 'checkr', settings: { api_base_url: prism.url }, credentials: { api_key: KEY } },
    });
    assert.equal(connection.status, 201, connection.text);
    connectionId = connection.body.id;
    const tested = await t.request('POST', `/v1/integrations/connections/${connection.body.id}/test`, { auth: acme.apiKey });
    assert.equal(tested.body.ok, true, tested.text);
    for (const action of ['background_checks.run_check', 'job_boards.import_applications']) await activateLicense(t, acme.apiKey, action);
    await enableProfileApply(t, acme.apiKey, [ORIGIN]);
    const made = await t.request('POST', '/v1/listings', { auth: acme.apiKey, body: { title: 'Driver', background_check: POLICY } });
    assert.equal(made.status, 201, made.text);
    checked = made.body.id;
    open = (await t.request('POST', '/v1/listings', { auth: acme.apiKey, body: { title: 'Dispatcher' } })).body.id;
    for (const [candidate, listing] of [
      [ADA, checked],
      [GRACE, open],
    ] as const) {
      const run = await runConnect(t, { organizationId: acme.organizationId, listingId: listing, origin: ORIGIN, button: `Authorize as ${candidate.name}` });
      assert.ok(run.result?.message.candidate_token, 'connected');
    }
    await waitFor(async () => Number((await t.database.db('hi_profile_snapshots').count({ n: '*' }).first())?.n ?? 0) >= 2 || undefined, 'two imports');
    boardSecret = (await t.request('POST', '/v1/board-applications/secret', { auth: acme.apiKey })).body.secret;
  });
  after(async () => {
    await t?.close();
    await prism?.stop();
  });

  it("a listing's background-check policy is validated, kept beside its requirements, and makes the widget ask for an email", async () => {
    assert.deepEqual(made(await t.request('GET', `/v1/listings/${checked}`, { auth: acme.apiKey })), POLICY);
    const refused: [object, RegExp][] = [
      [{ ...POLICY, package: 'Tasker Standard' }, /^background_check\.package$/],
      [{ ...POLICY, purpose: 'pilot' }, /^background_check\.purpose$/],
      [{ ...POLICY, work_location: { country: 'US' } }, /^background_check\.work_location/],
      [{ ...POLICY, work_location: { country: 'usa', state: 'CA' } }, /^background_check\.work_location\.country$/],
      [{ ...POLICY, extra: 1 }, /^background_check/],
    ];
    for (const [policy, param] of refused) {
      const response = await t.request('PATCH', `/v1/listings/${open}`, { auth: acme.apiKey, body: { background_check: policy } });
      assert.equal(response.status, 400, `${JSON.stringify(policy)}: ${response.text}`);
      assert.match(response.body.error.param, param);
    }
    assert.equal(made(await t.request('GET', `/v1/listings/${open}`, { auth: acme.apiKey })), null, 'nothing refused was written');
    const listed = await t.request('GET', '/v1/listings', { auth: acme.apiKey });
    assert.deepEqual(listed.body.data.find((l: { id: string }) => l.id === checked).background_check, POLICY);
    const shown = (id: string) => t.request('GET', `/v1/public/organizations/${acme.organizationId}/listings/${id}`);
    assert.deepEqual([(await shown(checked)).body.contact, (await shown(open)).body.contact], [{ email: 'required' }, { email: 'optional' }]);
    assert.equal((await t.request('GET', `/v1/listings/${checked}`, { auth: globex.apiKey })).status, 404);
  });

  it('contact is validated with stable codes, and required by a listing that orders a check (nothing written)', async () => {
    const cases: [string, object, string, string][] = [
      ['no contact', {}, 'parameter_missing', 'contact.email'],
      ['not an email', { contact: { email: 'ada at example' } }, 'parameter_invalid', 'contact.email'],
      ['an email too long', { contact: { email: `${'a'.repeat(250)}@example.com` } }, 'parameter_invalid', 'contact.email'],
      ['not a phone', { contact: { email: 'ada@example.com', phone: 'call me' } }, 'parameter_invalid', 'contact.phone'],
      ['too few digits', { contact: { email: 'ada@example.com', phone: '+1 23' } }, 'parameter_invalid', 'contact.phone'],
      ['an unknown field', { contact: { email: 'ada@example.com', fax: '1' } }, 'parameter_unknown', 'contact.fax'],
      ['not an object', { contact: 'ada@example.com' }, 'parameter_invalid', 'contact'],
      ['a malformed language', { contact: { email: 'ada@example.com' }, language: 'español!' }, 'parameter_invalid', 'language'],
      ['a language too long', { contact: { email: 'ada@example.com' }, language: `es-${'abcdefgh-'.repeat(4)}x` }, 'parameter_invalid', 'language'],
      ['a language not a string', { contact: { email: 'ada@example.com' }, language: ['es'] }, 'parameter_invalid', 'language'],
    ];
    for (const [name, extra, code, param] of cases) {
      const response = await apply(checked, { profile_user_id: ADA.id, ...extra });
      assert.equal(response.status, 400, `${name}: ${response.text}`);
      assert.deepEqual([response.body.error.code, response.body.error.param], [code, param], name);
    }
    assert.equal((await t.database.db('hi_profile_applications')).length, 0);
  });

  it('an application to such a listing orders the vendor check off the request: pending until the signed result, once per application', async () => {
    const response = await apply(checked, { profile_user_id: ADA.id, contact: { email: 'Ada@Example.com', phone: '+1 (555) 555-0100' }, language: 'ES-mx' });
    assert.equal(response.status, 201, response.text);
    adaApplication = response.body.application_id;
    const check = await waitFor(
      async () =>
        (await t.database.db('hi_background_checks').where({ organization_id: acme.organizationId, host_check_id: adaApplication }).first()) ?? undefined,
      'the background check ordered for the application',
    );
    assert.deepEqual(
      [check.action, check.candidate_email, check.candidate_id, check.listing_id, check.package_slug, check.status],
      ['background_checks.run_check', 'ada@example.com', ADA.id, checked, 'tasker_standard', 'pending'],
    );
    const run = await t.database.db('hi_action_runs').where({ id: check.run_id }).first();
    assert.deepEqual([run.status, run.connector], ['succeeded', 'checkr']);

    const read = (await application(adaApplication)).body;
    assert.deepEqual(read.contact, { email: 'ada@example.com', phone: '+1 (555) 555-0100' });
    assert.equal(read.duplicate_of, null);
    assert.equal(read.language, 'es-MX', 'the language the widget rendered in, canonical');
    assert.equal(read.credential_check.status, 'pending');
    assert.deepEqual(read.credential_check.requirements, [{ requirement: 'background_check', status: 'pending', reason: null, evidence: null }]);
    await delivered(adaApplication);
    const submitted = (await events('application.submitted')).find((e) => e.application_id === adaApplication);
    assert.deepEqual(submitted.applicant, { email: 'ada@example.com', phone: '+1 (555) 555-0100', has_resume: false });
    assert.equal(submitted.credential_check.status, 'pending');
    assert.equal(submitted.language, 'es-MX');
    const entry = await t.database.db('host_pipeline_applications').where({ application_id: adaApplication }).first();
    const piped = typeof entry.payload === 'string' ? JSON.parse(entry.payload) : entry.payload;
    assert.deepEqual(piped.applicant, { email: 'ada@example.com', phone: '+1 (555) 555-0100', resume: null });

    // Replayed: the order job under another id, and the host's own hook for the same check id, find the stored check.
    const replayed = await orderJob(adaApplication, `replay-${adaApplication}`);
    if (replayed) assert.deepEqual(replayed, { ordered: true, backgroundCheckId: check.id, status: 'pending' });
    const hook = await t.request('POST', '/host/v1/hooks/background_check.requested', {
      auth: t.operatorKey,
      body: {
        organization_id: acme.organizationId,
        payload: {
          check_id: adaApplication,
          candidate_id: ADA.id,
          candidate: { email: 'ada@example.com' },
          package: 'tasker_standard',
          work_location: POLICY.work_location,
        },
      },
    });
    assert.equal(hook.status, 200, hook.text);
    assert.equal(hook.body.outcomes.find((o: any) => o.handler === 'background-check-order').result.background_check_id, check.id);
    assert.equal((await t.database.db('hi_action_runs').where({ organization_id: acme.organizationId, action: 'background_checks.run_check' })).length, 1);
    assert.equal((await t.database.db('hi_background_checks').where({ organization_id: acme.organizationId })).length, 1);
  });

  it("the vendor's signed webhook completes the application's check and credential_check.completed names it", async () => {
    const done = await reportClear('evt_contact_1', 'rep_contact_1', '2026-11-27T10:00:00Z');
    assert.equal(done.status, 200, done.text);
    const check = (await application(adaApplication)).body.credential_check;
    assert.equal(check.status, 'met');
    assert.deepEqual(
      [check.requirements[0].status, check.requirements[0].evidence.source, check.requirements[0].evidence.credential_id],
      ['met', 'background_check', 'rep_contact_1'],
    );
    const completed = await events('credential_check.completed');
    assert.deepEqual(
      completed.map((e) => [e.check_id, e.listing_id, e.status]),
      [[adaApplication, checked, 'met']],
    );
  });

  it('no email, no order: the check says contact_email_missing and nothing fails', async () => {
    // Submitted before the listing ordered checks, without an email.
    const response = await apply(open, { profile_user_id: GRACE.id });
    assert.equal(response.status, 201, response.text);
    const id = response.body.application_id;
    await delivered(id);
    assert.equal((await t.request('PATCH', `/v1/listings/${open}`, { auth: acme.apiKey, body: { background_check: POLICY } })).status, 200);
    const read = (await application(id)).body;
    assert.equal(read.contact, null);
    assert.deepEqual(read.credential_check, {
      status: 'not_met',
      requirements: [{ requirement: 'background_check', status: 'missing', reason: 'contact_email_missing', evidence: null }],
      checked_at: read.credential_check.checked_at,
    });
    const outcome = await orderJob(id, `late-${id}`);
    if (outcome) assert.deepEqual(outcome, { ordered: false, reason: 'contact_email_missing' });
    assert.equal((await t.database.db('hi_background_checks').where({ host_check_id: id })).length, 0);
    assert.equal((await t.request('PATCH', `/v1/listings/${open}`, { auth: acme.apiKey, body: { background_check: null } })).status, 200);
  });

  it('a board delivery of the same email is a duplicate of the profile application; a profile application after a board one is flagged', async () => {
    const duplicate = await board(checked, 'ADA@example.com');
    assert.equal(duplicate.status, 200, duplicate.text);
    assert.deepEqual([duplicate.body.application_id, duplicate.body.duplicate], [adaApplication, true]);
    assert.equal((await t.database.db('hi_board_applications').where({ organization_id: acme.organizationId })).length, 0);

    const third = (await t.request('POST', '/v1/listings', { auth: acme.apiKey, body: { title: 'Mechanic' } })).body.id;
    const first = await board(third, 'grace@example.com');
    assert.equal(first.status, 201, first.text);
    const boardRead = (await application(first.body.application_id)).body;
    assert.deepEqual(boardRead.contact, { email: 'grace@example.com', phone: '+15555550199' });
    // A verified profile brings what the board application lacks: accepted, and flagged as the same person.
    const profile = await apply(third, { profile_user_id: GRACE.id, contact: { email: 'Grace@Example.com' } });
    assert.equal(profile.status, 201, profile.text);
    const read = (await application(profile.body.application_id)).body;
    assert.deepEqual([read.duplicate_of, read.contact, read.language], [first.body.application_id, { email: 'grace@example.com', phone: null }, null]);
    await delivered(profile.body.application_id);
    const submitted = (await events('application.submitted')).find((e) => e.application_id === profile.body.application_id);
    assert.equal(submitted.duplicate_of, first.body.application_id, 'the receiver can merge them');
    const listed = await t.request('GET', `/v1/opportunities/listings/${third}/applications`, { auth: acme.apiKey });
    assert.deepEqual(
      listed.body.data.map((a: { duplicate_of: string | null }) => a.duplicate_of),
      [first.body.application_id, null],
    );
    assert.equal((await application(profile.body.application_id, globex.apiKey)).status, 404);

    // A board application is an application like any other: the listing's policy orders its check.
    const fromBoard = await board(checked, 'alan@example.com');
    assert.equal(fromBoard.status, 201, fromBoard.text);
    const ordered = await waitFor(
      async () => (await t.database.db('hi_background_checks').where({ host_check_id: fromBoard.body.application_id }).first()) ?? undefined,
      "the board application's background check",
    );
    assert.deepEqual([ordered.candidate_email, ordered.status], ['alan@example.com', 'pending']);
  });

  it("an export of the candidate with the email the host knows finds every application given with it, the board's too", async () => {
    const boardApplication = (await t.database.db('hi_board_applications').where({ organization_id: acme.organizationId, email: 'grace@example.com' }).first())
      .application_id;
    const created = await t.request('POST', `/v1/candidates/${GRACE.id}/exports`, { auth: acme.apiKey, body: { emails: ['Grace@Example.com'] } });
    assert.equal(created.status, 202, created.text);
    const done = await waitFor(async () => {
      const read = await t.request('GET', `/v1/candidates/${GRACE.id}/exports/${created.body.id}`, { auth: acme.apiKey });
      return read.body.status === 'succeeded' ? read.body : undefined;
    }, 'the export');
    const doc = JSON.parse(await (await fetch(done.download_url)).text());
    const applications = doc.stores.find((s: { name: string }) => s.name === 'applications').records as { id: string; contact_email: string | null }[];
    assert.ok(
      applications.some((a) => a.id === boardApplication && a.contact_email === 'grace@example.com'),
      JSON.stringify(applications.map((a) => a.id)),
    );
    assert.ok(!applications.some((a) => a.id === adaApplication), "nobody else's");
  });

  describe('orders that fail or get lost', () => {
    let courier: string;
    const orderRun = async (applicationId: string) =>
      (await t.database
        .db('hi_action_runs')
        .where({ organization_id: acme.organizationId, idempotency_key: `bgc-order-${acme.organizationId}-background_checks.run_check-${applicationId}` })
        .first()) ?? undefined;
    const failedRun = (applicationId: string) =>
      waitFor(async () => {
        const run = await orderRun(applicationId);
        return run?.status === 'failed' ? run : undefined;
      }, `the failed order run of ${applicationId}`);
    const completedOf = async (applicationId: string) => (await events('credential_check.completed')).filter((e) => e.check_id === applicationId);

    before(async () => {
      const made = await t.request('POST', '/v1/listings', { auth: acme.apiKey, body: { title: 'Courier', background_check: POLICY } });
      assert.equal(made.status, 201, made.text);
      courier = made.body.id;
    });

    it('an order the vendor refuses reads unverified (vendor_order_failed, the run as evidence), completed once; a retry refused again changes nothing', async () => {
      // A domain label ending in "-" passes our email check; Checkr refuses it (400 "Email is invalid").
      const response = await apply(courier, { profile_user_id: ADA.id, contact: { email: 'ada@mail-.example.com' } });
      assert.equal(response.status, 201, response.text);
      const id = response.body.application_id;
      const run = await failedRun(id);
      assert.deepEqual([run.connector, run.error_code], ['checkr', 'counterpart_rejected']);
      const read = (await application(id)).body.credential_check;
      const expected = [
        {
          requirement: 'background_check',
          status: 'unverified',
          reason: 'vendor_order_failed',
          evidence: {
            source: 'background_check',
            credential_id: null,
            issuer: 'checkr',
            types: ['BackgroundCheck'],
            valid_from: null,
            valid_until: null,
            verification: 'unverified',
            detail: 'counterpart_rejected',
            run_id: run.id,
          },
        },
      ];
      assert.deepEqual([read.status, read.requirements], ['not_met', expected]);
      const completed = await waitFor(async () => {
        const found = await completedOf(id);
        return found.length > 0 ? found : undefined;
      }, 'credential_check.completed of the refused order');
      assert.deepEqual(
        completed.map((e) => [e.status, e.listing_id, e.run_id, e.requirements]),
        [['not_met', courier, run.id, expected]],
      );
      assert.equal((await t.database.db('hi_background_checks').where({ host_check_id: id })).length, 0, 'nothing stored as ordered');

      // Retried: one more attempt on the same run, refused again; the event is not published twice.
      const retried = await t.request('POST', `/v1/integrations/runs/${run.id}/retry`, { auth: acme.apiKey });
      assert.equal(retried.status, 202, retried.text);
      await waitFor(async () => {
        const again = await orderRun(id);
        return again?.status === 'failed' && again.attempts.length === 2 ? again : undefined;
      }, 'the second refused attempt');
      assert.equal((await completedOf(id)).length, 1);
      assert.equal((await t.request('POST', `/v1/integrations/runs/${run.id}/retry`, { auth: globex.apiKey })).status, 404);
      // Failed runs are pruned after ACTION_RUN_FAILED_RETENTION_DAYS: the check still says what happened, never `pending`.
      await t.database.db('hi_action_runs').where({ id: run.id }).delete();
      assert.deepEqual((await application(id)).body.credential_check.requirements, expected);
    });

    it('retried after the connection is fixed, the order goes through: pending again, then the vendor decides', async () => {
      // The key rotated: the connection is untested, so no order goes out (connection_missing).
      const rotated = await t.request('PATCH', `/v1/integrations/connections/${connectionId}`, { auth: acme.apiKey, body: { credentials: { api_key: KEY } } });
      assert.equal(rotated.status, 200, rotated.text);
      const response = await apply(courier, { profile_user_id: GRACE.id, contact: { email: 'grace.h@example.com' } });
      assert.equal(response.status, 201, response.text);
      const id = response.body.application_id;
      const run = await failedRun(id);
      assert.equal(run.error_code, 'connection_missing');
      assert.deepEqual(
        (await application(id)).body.credential_check.requirements.map((r: any) => [r.status, r.reason, r.evidence?.run_id]),
        [['unverified', 'vendor_order_failed', run.id]],
      );
      const tested = await t.request('POST', `/v1/integrations/connections/${connectionId}/test`, { auth: acme.apiKey });
      assert.equal(tested.body.ok, true, tested.text);
      const retried = await t.request('POST', `/v1/integrations/runs/${run.id}/retry`, { auth: acme.apiKey });
      assert.equal(retried.status, 202, retried.text);
      const check = await waitFor(
        async () => (await t.database.db('hi_background_checks').where({ organization_id: acme.organizationId, host_check_id: id }).first()) ?? undefined,
        'the check ordered by the retried run',
      );
      assert.equal(check.run_id, run.id, 'the same run');
      assert.equal((await orderRun(id)).status, 'succeeded');
      const pending = (await application(id)).body.credential_check;
      assert.deepEqual(
        [pending.status, pending.requirements],
        ['pending', [{ requirement: 'background_check', status: 'pending', reason: null, evidence: null }]],
      );

      const done = await reportClear('evt_contact_retried', 'rep_contact_retried', '2026-11-27T11:00:00Z');
      assert.equal(done.status, 200, done.text);
      assert.equal((await application(id)).body.credential_check.status, 'met');
      assert.deepEqual(
        (await completedOf(id)).map((e) => e.status),
        ['not_met', 'met'],
      );
    });

    it('an order job lost with Redis is found by the reconciliation sweep and ordered once', async function () {
      if (!usingRedis()) return skipBecause(this, 'the in-process queue has no store to lose');
      const night = (await t.request('POST', '/v1/listings', { auth: acme.apiKey, body: { title: 'Night courier' } })).body.id;
      const response = await apply(night, { profile_user_id: ADA.id, contact: { email: 'ada.night@example.com' } });
      assert.equal(response.status, 201, response.text);
      const id = response.body.application_id;
      await delivered(id);
      // The policy was in force when the application was delivered, and its order job died with Redis.
      assert.equal((await t.request('PATCH', `/v1/listings/${night}`, { auth: acme.apiKey, body: { background_check: POLICY } })).status, 200);
      await t.database
        .db('hi_listing_background_checks')
        .where({ listing_id: night })
        .update({ updated_at: new Date(Date.now() - 3_600_000) });
      assert.equal((await t.database.db('hi_background_checks').where({ host_check_id: id })).length, 0);

      const client = createRedis(process.env.REDIS_URL!, 'client');
      const queue = new BullmqJobQueue({
        connection: client,
        workerConnection: () => createRedis(process.env.REDIS_URL!, 'worker'),
        prefix: t.config.queuePrefix,
        definitions: queueDefinitions(loadManifest()),
        logger: testLogger(),
      });
      try {
        const sweep = new ReconciliationSweep([new BackgroundCheckOrderReconciler(t.database.db)], queue, testLogger(), { boundMs: 0, batchSize: 100 });
        // Two sweeps at once (two workers): the job's fixed id lets one job exist.
        const reports = await Promise.all([sweep.run(new Date(Date.now() + 1000)), sweep.run(new Date(Date.now() + 1000))]);
        for (const report of reports)
          assert.deepEqual([report.background_check_orders!.found, report.background_check_orders!.error ?? 0], [1, 0], JSON.stringify(reports));
        const check = await waitFor(
          async () => (await t.database.db('hi_background_checks').where({ organization_id: acme.organizationId, host_check_id: id }).first()) ?? undefined,
          'the swept order',
        );
        assert.deepEqual([check.status, check.candidate_email], ['pending', 'ada.night@example.com']);
        // Nothing left to sweep, and the refused order of the courier listing stays failed (not re-queued).
        const after = await sweep.run(new Date(Date.now() + 1000));
        assert.equal(after.background_check_orders!.found, 0, JSON.stringify(after));
        assert.equal((await t.database.db('hi_background_checks').where({ host_check_id: id })).length, 1, 'ordered once');
        assert.equal((await orderRun(id)).status, 'succeeded');
      } finally {
        await queue.close();
        await closeRedis(client);
      }
    });

    it('an order whose vendor stays out of reach through its last attempt fails its run, and the check says so once', async function () {
      if (!usingRedis()) return skipBecause(this, 'the job is queued with one attempt through BullMQ');
      const late = (await t.request('POST', '/v1/listings', { auth: acme.apiKey, body: { title: 'Late courier' } })).body.id;
      const response = await apply(late, { profile_user_id: GRACE.id, contact: { email: 'grace.late@example.com' } });
      assert.equal(response.status, 201, response.text);
      const id = response.body.application_id;
      await delivered(id);
      assert.equal((await t.request('PATCH', `/v1/listings/${late}`, { auth: acme.apiKey, body: { background_check: POLICY } })).status, 200);
      // Checkr is gone (the last test of the file: nothing after it needs the vendor).
      await prism.stop();
      const { Queue } = await import('bullmq');
      const { default: Redis } = await import('ioredis');
      const connection = new Redis(t.config.redisUrl!, { maxRetriesPerRequest: null });
      const queue = new Queue('background-check-orders', { connection, prefix: t.config.queuePrefix });
      try {
        // Its only attempt is its last: a transient failure exhausts the retries.
        await queue.add('order', { organization_id: acme.organizationId, application_id: id }, { jobId: `last-${id}`, attempts: 1 });
      } finally {
        await queue.close();
        await connection.quit();
      }
      const run = await failedRun(id);
      assert.deepEqual([run.error_code, run.attempts.length], ['connection_unreachable', 1]);
      const read = (await application(id)).body.credential_check;
      assert.deepEqual(
        [read.status, ...read.requirements.map((r: any) => [r.status, r.reason, r.evidence.detail, r.evidence.run_id])],
        ['not_met', ['unverified', 'vendor_order_failed', 'connection_unreachable', run.id]],
      );
      await waitFor(async () => ((await completedOf(id)).length === 1 ? true : undefined), 'credential_check.completed of the exhausted order');
      const failed = (await events('action_run.failed')).filter((e) => e.run_id === run.id);
      assert.deepEqual(
        failed.map((e) => [e.status, e.error_code]),
        [['failed', 'connection_unreachable']],
      );
    });
  });
});

function made(response: { status: number; text: string; body: { background_check: unknown } }) {
  assert.equal(response.status, 200, response.text);
  return response.body.background_check;
}
