/**
 * The `checkr` connector against Prism serving the Checkr contract (test/fixtures/checkr: written
 * from Checkr's API reference and official client, see SOURCE.md; Prism validates each of our
 * requests against it): the connection test reads the account; an order creates the candidate and
 * the invitation (the hosted consent flow); monitoring enrolls a continuous check; reports and
 * motor vehicle records read back in Checkr's shape; webhooks verify by X-Checkr-Signature only.
 */
import { strict as assert } from 'node:assert';
import path from 'node:path';
import { checkrConnector } from '../../src/connectors/checkr';
import { checkrSignature } from '../../src/connectors/checkr/checkr-webhook';
import { checkrCredentials, checkrSettings } from '../../src/connectors/checkr/settings';
import { PACKAGE_ROOT } from '../../src/platform/manifest/manifest';
import { isDomainError } from '../../src/kernel/errors';
import { startPrism, type PrismServer } from '../helpers/prism';
import { freePort } from '../helpers/processes';
import { activateLicense } from '../helpers/hooks';
import { startTestHost, type TestHost } from '../helpers/test-host';

const SPEC = path.join(PACKAGE_ROOT, 'test/fixtures/checkr/checkr.openapi.yaml');
const KEY = '83ebeabdec09f6670863766f792ead24d61fe3f9';

describe('background checks: the checkr connector', function () {
  this.timeout(60_000);
  let prism: PrismServer;
  const credentials = checkrCredentials.parse({ api_key: KEY });
  const settings = (base: string) => checkrSettings.parse({ api_base_url: base });
  const base = { organizationId: 'org_1', actionKey: 'background_checks.run_check', idempotencyKey: 'k1' };

  before(async () => {
    prism = await startPrism(SPEC);
  });
  after(async () => {
    await prism?.stop();
  });

  it('the connection test reads the account with the key (a real round trip that orders nothing)', async () => {
    const outcome = await checkrConnector.test(settings(prism.url), credentials);
    assert.equal(outcome.ok, true, JSON.stringify(outcome));
  });

  it('an order creates the candidate, then an invitation to the hosted consent flow, both accepted by the contract', async () => {
    const port = checkrConnector.open(settings(prism.url), credentials);
    const ordered = await port.orderCheck({
      ...base,
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      packageSlug: 'driver_pro',
      workLocation: { country: 'US', state: 'CA', city: 'San Francisco' },
    });
    assert.match(ordered.vendorCandidateId, /^[a-z0-9]+$/);
    assert.equal(ordered.reference, ordered.invitationId);
    assert.match(ordered.invitationUrl, /^https:\/\//);
    const monitoring = await port.enrollMonitoring({ ...base, idempotencyKey: 'k2', vendorCandidateId: ordered.vendorCandidateId, type: 'criminal' });
    assert.equal(typeof monitoring.subscriptionId, 'string');
  });

  it('reports and motor vehicle records read back in Checkr shape', async () => {
    const port = checkrConnector.open(settings(prism.url), credentials);
    const report = await port.fetchReport('4722c07dd9a10c3985ae432a');
    assert.deepEqual([report.status, report.result, typeof report.motorVehicleReportId], ['complete', 'consider', 'string']);
    const mvr = await port.fetchMotorVehicleRecord(report.motorVehicleReportId!);
    assert.equal(mvr.licenseStatus, 'valid');
    assert.ok(mvr.violations.some((v) => /under the influence/.test(v.description)));
  });

  it('Checkr out of reach is a transient connection_unreachable; a refused key fails the test with connection_auth_failed', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const outcome = await checkrConnector.test(settings(closed), credentials);
    assert.equal(outcome.ok ? 'ok' : outcome.code, 'connection_unreachable');
    await assert.rejects(checkrConnector.open(settings(closed), credentials).fetchReport('r1'), (e: unknown) => isDomainError(e) && e.kind === 'upstream');
    // No Authorization header at all: the contract's basic auth refuses it (Prism answers 401).
    const anonymous = await fetch(`${prism.url}/v1/account`);
    assert.equal(anonymous.status, 401);
    assert.ok(!checkrSettings.safeParse({ api_base_url: 'http://api.checkr.com' }).success, 'no clear-text key');
    assert.ok(!checkrCredentials.safeParse({ api_key: 'short' }).success);
  });

  it('webhooks: a body signed with the key verifies; forged, tampered or unsigned ones are webhook_signature_invalid', () => {
    const port = checkrConnector.open(settings(prism.url), credentials);
    const body = Buffer.from(
      JSON.stringify({
        id: 'evt_1',
        object: 'event',
        type: 'report.completed',
        data: { object: { id: 'r1', object: 'report', status: 'complete', result: 'clear' } },
      }),
    );
    const event = port.verifyWebhook(body, checkrSignature(body, KEY));
    assert.deepEqual([event.id, event.type, event.object.id], ['evt_1', 'report.completed', 'r1']);
    const refused = (raw: Buffer, signature: string | undefined) =>
      assert.throws(
        () => port.verifyWebhook(raw, signature),
        (e: unknown) => isDomainError(e) && e.kind === 'invalid' && e.code === 'webhook_signature_invalid',
      );
    refused(body, checkrSignature(body, 'someone-elses-key-0000'));
    refused(Buffer.from(body.toString().replace('clear', 'consider')), checkrSignature(body, KEY));
    refused(body, undefined);
    refused(body, 'not-hex');
  });

  describe('the actions, end to end (a Checkr connection on Prism; results by signed webhook)', () => {
    let t: TestHost;
    let acme: { organizationId: string; apiKey: string };
    // Prism answers its examples: Checkr's candidate for every order.
    const VENDOR_CANDIDATE = 'e44aa283528e6fde7d542194';
    const fire = (hook: string, payload: object) =>
      t.request('POST', `/host/v1/hooks/${hook}`, { auth: t.operatorKey, body: { organization_id: acme.organizationId, payload } });
    const outcomeOf = (body: any, handler: string) => body.outcomes.find((o: any) => o.handler === handler);
    const webhook = (event: object, key = KEY, organizationId = acme.organizationId) => {
      const body = JSON.stringify(event);
      return t.request('POST', `/v1/background-checks/vendor-events?organization_id=${organizationId}`, {
        rawBody: body,
        headers: { 'content-type': 'application/json', 'X-Checkr-Signature': checkrSignature(body, key) },
      });
    };
    const reportEvent = (id: string, report: object) => ({
      id,
      object: 'event',
      type: 'report.completed',
      created_at: '2026-11-27T10:00:00Z',
      data: { object: { object: 'report', status: 'complete', candidate_id: VENDOR_CANDIDATE, ...report } },
    });
    const request = (checkId: string, purpose: 'standard' | 'driver') => ({
      check_id: checkId,
      candidate_id: 'cand_ada',
      listing_id: 'lst_driver',
      purpose,
      candidate: { email: 'Ada@Example.com', first_name: 'Ada', last_name: 'Lovelace' },
      package: purpose === 'driver' ? 'driver_pro' : 'tasker_standard',
      work_location: { country: 'US', state: 'CA', city: 'San Francisco' },
    });
    const events = async (type: string) =>
      (await t.database.db('hi_events').where({ organization_id: acme.organizationId, type }).orderBy('sequence')).map((e: any) =>
        typeof e.data === 'string' ? JSON.parse(e.data) : e.data,
      );
    let standardId: string;

    before(async function () {
      this.timeout(180_000);
      t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
      acme = await t.createOrganization('Acme Rides');
      const created = await t.request('POST', '/v1/integrations/connections', {
        auth: acme.apiKey,
        body: { connector: 'checkr', settings: { api_base_url: prism.url }, credentials: { api_key: KEY } },
      });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.kind, 'background_checks');
      const tested = await t.request('POST', `/v1/integrations/connections/${created.body.id}/test`, { auth: acme.apiKey });
      assert.equal(tested.body.ok, true, tested.text);
      for (const action of ['background_checks.run_check', 'background_checks.route_verification', 'background_checks.continuous_monitoring'])
        await activateLicense(t, acme.apiKey, action);
    });
    after(() => t?.close());

    it('run_check orders the check (candidate + consent invitation): the requirement is pending, the run succeeded', async () => {
      const fired = await fire('background_check.requested', request('chk_1', 'standard'));
      assert.equal(fired.status, 200, fired.text);
      const ran = outcomeOf(fired.body, 'background-check-order');
      assert.equal(ran.status, 'ran', JSON.stringify(ran));
      assert.equal(ran.result.status, 'pending');
      assert.match(ran.result.invitation_url, /^https:\/\/apply\.checkr\.com\//);
      assert.deepEqual(ran.result.requirements, [{ requirement: 'background_check', status: 'pending', reason: null, evidence: null }]);
      // The driver handler leaves a standard request alone, saying why.
      assert.deepEqual(
        [outcomeOf(fired.body, 'route-verification-order').status, outcomeOf(fired.body, 'route-verification-order').reason],
        ['skipped', 'purpose_not_handled: background_checks.route_verification handles purpose driver; this request is standard'],
      );
      standardId = ran.result.background_check_id;
      const run = await t.database.db('hi_action_runs').where({ id: ran.result.run_id }).first();
      assert.deepEqual([run.status, run.connector, run.reference], ['succeeded', 'checkr', '29c3c8a1c40d0b6c3d1e9a72']);
      // Fired again: the same check, nothing ordered twice.
      const again = await fire('background_check.requested', request('chk_1', 'standard'));
      assert.equal(outcomeOf(again.body, 'background-check-order').result.background_check_id, standardId);
      assert.equal((await t.database.db('hi_action_runs').where({ organization_id: acme.organizationId, action: 'background_checks.run_check' })).length, 1);
    });

    it('the signed report.completed webhook decides it (consider: unverified) once; forged or replayed ones change nothing', async () => {
      const forged = await webhook(reportEvent('evt_r1', { id: 'rep_1', result: 'clear' }), 'someone-elses-key-0000');
      assert.deepEqual([forged.status, forged.body.error?.code], [400, 'webhook_signature_invalid']);
      const garbage = await t.request('POST', `/v1/background-checks/vendor-events?organization_id=${acme.organizationId}`, { body: { id: 'x' } });
      assert.equal(garbage.status, 400);
      const done = await webhook(reportEvent('evt_r1', { id: 'rep_1', result: 'consider' }));
      assert.equal(done.status, 200, done.text);
      assert.deepEqual([done.body.duplicate, done.body.applied], [false, true]);
      const replay = await webhook(reportEvent('evt_r1', { id: 'rep_1', result: 'clear' }));
      assert.deepEqual([replay.status, replay.body.duplicate, replay.body.applied], [200, true, false]);
      const check = (await t.request('GET', `/v1/background-checks/${standardId}`, { auth: acme.apiKey })).body;
      assert.deepEqual([check.status, check.report_status, check.report_result, check.vendor.report_id], ['not_met', 'complete', 'consider', 'rep_1']);
      assert.deepEqual(
        [check.requirements[0].status, check.requirements[0].reason, check.requirements[0].evidence.credential_id],
        ['unverified', 'report_consider', 'rep_1'],
      );
      const completed = await events('credential_check.completed');
      assert.equal(completed.length, 1);
      assert.deepEqual([completed[0].check_id, completed[0].status, completed[0].action], ['chk_1', 'not_met', 'background_checks.run_check']);
    });

    it('adverse action: pre-adverse notice by email, no final notice inside the waiting period, then the final notice', async () => {
      const path = `/v1/background-checks/${standardId}/adverse-action`;
      const short = await t.request('POST', path, { auth: acme.apiKey, body: { waiting_business_days: 3 } });
      assert.equal(short.status, 400, 'fewer than five business days is refused');
      const started = await t.request('POST', path, { auth: acme.apiKey, body: {} });
      assert.equal(started.status, 200, started.text);
      assert.equal(started.body.adverse_action.stage, 'pre_notice_sent');
      const waitedMs = Date.parse(started.body.adverse_action.waiting_until) - Date.parse(started.body.adverse_action.pre_notice_at);
      // From a weekday five business days span a week; from a Saturday or Sunday they end on Friday (6 or 5 days).
      assert.ok(waitedMs >= 5 * 86_400_000 - 1, 'five business days span at least five calendar days');
      const mails = await t.database.db('hi_connector_deliveries').where({ organization_id: acme.organizationId, connector: 'email' });
      assert.equal(mails.length, 1);
      const mail = typeof mails[0].request === 'string' ? JSON.parse(mails[0].request) : mails[0].request;
      assert.equal(mail.to.email, 'ada@example.com');
      assert.match(mail.text, /checkr report rep_1/);
      assert.match(mail.text, /Summary of Your Rights Under the Fair Credit Reporting Act: https:\/\/files\.consumerfinance\.gov\//);
      assert.deepEqual((await t.request('POST', path, { auth: acme.apiKey, body: {} })).body.error.code, 'adverse_action_already_started');
      const early = await t.request('POST', `${path}/final`, { auth: acme.apiKey });
      assert.deepEqual([early.status, early.body.error.code], [409, 'waiting_period_running']);
      // The waiting period passes (the deadline moved back, as the clock would move forward).
      await t.database
        .db('hi_background_checks')
        .where({ id: standardId })
        .update({ adverse_waiting_until: new Date(Date.now() - 60_000) });
      const final = await t.request('POST', `${path}/final`, { auth: acme.apiKey });
      assert.equal(final.status, 200, final.text);
      assert.equal(final.body.adverse_action.stage, 'final_notice_sent');
      assert.equal((await t.database.db('hi_connector_deliveries').where({ organization_id: acme.organizationId, connector: 'email' })).length, 2);
      assert.deepEqual((await t.request('POST', `${path}/cancel`, { auth: acme.apiKey })).body.error.code, 'adverse_action_not_pending');
      assert.deepEqual([(await events('adverse_action.pre_notice_sent')).length, (await events('adverse_action.final_notice_sent')).length], [1, 1]);
    });

    it('route_verification: a motor-vehicle record with a major violation leaves motor_vehicle_record unmet, with its reason', async () => {
      const fired = await fire('background_check.requested', request('chk_2', 'driver'));
      const ran = outcomeOf(fired.body, 'route-verification-order');
      assert.equal(ran.status, 'ran', JSON.stringify(ran));
      assert.deepEqual(
        ran.result.requirements.map((r: any) => [r.requirement, r.status]),
        [
          ['driver_license', 'pending'],
          ['motor_vehicle_record', 'pending'],
        ],
      );
      const done = await webhook(
        reportEvent('evt_r2', { id: 'rep_2', result: 'consider', package: 'driver_pro', motor_vehicle_report_id: '539fd88c101897f7cd000007' }),
      );
      assert.equal(done.status, 200, done.text);
      const check = (await t.request('GET', `/v1/background-checks/${ran.result.background_check_id}`, { auth: acme.apiKey })).body;
      assert.equal(check.status, 'not_met');
      const [license, record] = check.requirements;
      assert.deepEqual([license.requirement, license.status, license.evidence.valid_until], ['driver_license', 'met', '2029-07-24']);
      assert.deepEqual([record.requirement, record.status, record.reason], ['motor_vehicle_record', 'unverified', 'major_violation']);
      assert.match(record.evidence.detail, /under the influence/);
      const listed = await t.request('GET', '/v1/background-checks?candidate_id=cand_ada', { auth: acme.apiKey });
      assert.deepEqual(
        listed.body.data.map((c: any) => c.check_id),
        ['chk_2', 'chk_1'],
      );
    });

    it('continuous_monitoring enrolls the hire; a later report for them is a monitoring alert', async () => {
      const hired = await fire('candidate.hired', { candidate_id: 'cand_ada', candidate: { name: 'Ada Lovelace', email: 'ada@example.com' } });
      const ran = outcomeOf(hired.body, 'continuous-monitoring-enroll');
      assert.equal(ran.status, 'ran', JSON.stringify(ran));
      assert.deepEqual([ran.result.monitoring_id, ran.result.monitoring_type], ['7c2a0d1e9f3b4a5c6d7e8f90', 'mvr']);
      const nobody = await fire('candidate.hired', { candidate_id: 'cand_unknown', candidate: { name: 'X', email: 'x@example.com' } });
      assert.match(outcomeOf(nobody.body, 'continuous-monitoring-enroll').reason, /^background_check_missing/);
      const alert = await webhook(reportEvent('evt_r3', { id: 'rep_3', result: 'consider', package: 'continuous_mvr' }));
      assert.deepEqual([alert.status, alert.body.applied], [200, true]);
      const alerts = await events('background_check.monitoring_alert');
      assert.deepEqual(
        alerts.map((a) => [a.candidate_id, a.report_id, a.result]),
        [['cand_ada', 'rep_3', 'consider']],
      );
    });
  });
});
