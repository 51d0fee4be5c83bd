/**
 * Licenses over HTTP on real services (PostgreSQL + BullMQ in CI, PGlite + in-process
 * jobs embedded): activation and its idempotency, 20 concurrent activations, every
 * transition of the license state machine, provisioner retries and final failure,
 * events on the hook bus, deactivation and deprovisioning, and the entitlement question.
 */
import { strict as assert } from 'node:assert';
import { KnexLicenseRepository } from '../../src/features/licensing/storage/license-repository';
import { SandboxProvisioner } from '../../src/connectors/sandbox/sandbox-provisioner';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { waitFor } from '../helpers/profile-flow';
import { eventsOf, faultsInjected, licenseOf, planFault, settledLicense } from '../helpers/licensing';

const activate = (t: TestHost, key: string, apiKey: string, headers: Record<string, string> = {}) =>
  t.request('POST', `/v1/integrations/licenses/${key}/activate`, { auth: apiKey, headers });
const deactivate = (t: TestHost, key: string, apiKey: string) => t.request('POST', `/v1/integrations/licenses/${key}/deactivate`, { auth: apiKey });

describe('licensing: licenses', function () {
  this.timeout(60_000);
  let t: TestHost;
  let acme: { organizationId: string; apiKey: string };
  let globex: { organizationId: string; apiKey: string };

  before(async () => {
    t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
    acme = await t.createOrganization('Acme');
    globex = await t.createOrganization('Globex');
  });
  after(() => t?.close());

  it('activation answers 202 with a provisioning license, then the job makes it active and says so on the hook bus', async () => {
    const response = await activate(t, 'profile.accept_application', acme.apiKey);
    assert.equal(response.status, 202, response.text);
    const license = response.body;
    assert.match(license.id, /^lic_[0-9A-Za-z]{20}$/);
    assert.equal(license.object, 'license');
    assert.equal(license.action_key, 'profile.accept_application');
    assert.equal(license.source, 'a_la_carte');
    assert.equal(license.package, null);
    assert.equal(license.status, 'provisioning');
    assert.equal(license.activated_at, null);
    assert.ok(Date.parse(license.created_at));

    const settled = await settledLicense(t, acme.apiKey, license.id);
    assert.equal(settled.status, 'active');
    assert.ok(Date.parse(settled.activated_at) >= Date.parse(settled.created_at));
    const records = await t.database.db('hi_sandbox_provisionings').where({ license_id: license.id });
    assert.equal(records.length, 1);
    assert.equal(records[0].group_key, 'profile');
    await waitFor(
      async () => eventsOf(t, acme.organizationId, 'license.activated').some((e) => e.payload.license_id === license.id) || undefined,
      'license.activated',
    );
    const event = eventsOf(t, acme.organizationId, 'license.activated').find((e) => e.payload.license_id === license.id)!;
    assert.equal(event.payload.action_key, 'profile.accept_application');
    assert.equal(event.payload.entitled, true);
  });

  it('activating an active action answers the existing license (200), and an Idempotency-Key replays', async () => {
    const [first] = (await t.request('GET', '/v1/integrations/licenses?action_key=profile.accept_application', { auth: acme.apiKey })).body.data;
    const again = await activate(t, 'profile.accept_application', acme.apiKey);
    assert.equal(again.status, 200);
    assert.equal(again.body.id, first.id);
    const keyed = await activate(t, 'profile.accept_application', acme.apiKey, { 'Idempotency-Key': 'act-1' });
    const replay = await activate(t, 'profile.accept_application', acme.apiKey, { 'Idempotency-Key': 'act-1' });
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(replay.body, keyed.body);
  });

  it('a malformed key is 400 invalid_action_key, an unknown action 404, and nothing is written', async () => {
    for (const bad of ['Profile.Accept', 'profile', 'profile.', '.x', 'a.b.c', 'profile.accept-application', 'x'.repeat(101) + '.y']) {
      const response = await activate(t, encodeURIComponent(bad), acme.apiKey);
      assert.equal(response.status, 400, `${bad}: ${response.text}`);
      assert.equal(response.body.error.code, 'invalid_action_key');
      assert.equal(response.body.error.param, 'action_key');
    }
    const unknown = await activate(t, 'profile.read_minds', acme.apiKey);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, 'resource_missing');
    assert.equal((await t.database.db('hi_licenses').where({ action_key: 'profile.read_minds' })).length, 0);
  });

  it('needs an organization key: none is 401, the operator key is refused', async () => {
    assert.equal((await t.request('POST', '/v1/integrations/licenses/sms.two_factor_auth/activate')).status, 401);
    assert.equal((await activate(t, 'sms.two_factor_auth', t.operatorKey)).status, 403);
  });

  it('20 concurrent activations of one action make one license, one job and one provisioning', async () => {
    const responses = await Promise.all(Array.from({ length: 20 }, () => activate(t, 'esign.send_offer', acme.apiKey)));
    for (const r of responses) assert.ok(r.status === 202 || r.status === 200, r.text);
    const ids = new Set(responses.map((r) => r.body.id));
    assert.equal(ids.size, 1);
    const rows = await t.database.db('hi_licenses').where({ organization_id: acme.organizationId, action_key: 'esign.send_offer' });
    assert.equal(rows.length, 1);
    const [id] = [...ids] as string[];
    assert.equal((await t.database.db('hi_outbox').where({ job_id: `provision-${id}` })).length, 1);
    assert.equal((await settledLicense(t, acme.apiKey, id!)).status, 'active');
    assert.equal((await t.database.db('hi_sandbox_provisionings').where({ license_id: id })).length, 1);
  });

  it('licenses are per organization: another organization neither sees nor holds them', async () => {
    const list = await t.request('GET', '/v1/integrations/licenses', { auth: globex.apiKey });
    assert.deepEqual(list.body.data, []);
    const repo = new KnexLicenseRepository(t.database.db);
    assert.equal(await repo.hasActive(acme.organizationId, 'profile.accept_application'), true);
    assert.equal(await repo.hasActive(globex.organizationId, 'profile.accept_application'), false);
  });

  it('a provisioner failing twice then succeeding ends active after three attempts', async () => {
    await planFault(t, {
      organizationId: acme.organizationId,
      actionKey: 'notifications.interview_reminder',
      kind: 'transient',
      times: 2,
      reason: 'webhook endpoint timed out',
    });
    const response = await activate(t, 'notifications.interview_reminder', acme.apiKey);
    assert.equal(response.status, 202);
    const settled = await settledLicense(t, acme.apiKey, response.body.id);
    assert.equal(settled.status, 'active', JSON.stringify(settled));
    assert.equal(settled.failure_reason, null);
    assert.equal(await faultsInjected(t, acme.organizationId, 'notifications.interview_reminder'), 2);
    assert.equal((await t.database.db('hi_sandbox_provisionings').where({ license_id: response.body.id })).length, 1);
    assert.equal(eventsOf(t, acme.organizationId, 'license.failed').length, 0);
  });

  it('a provisioner that always fails ends failed with the reason after every attempt, then a new activation starts afresh', async () => {
    await planFault(t, {
      organizationId: acme.organizationId,
      actionKey: 'sms.interview_reminder',
      kind: 'transient',
      times: null,
      reason: 'SMS gateway down',
    });
    const response = await activate(t, 'sms.interview_reminder', acme.apiKey);
    const failed = await settledLicense(t, acme.apiKey, response.body.id, 40_000);
    assert.equal(failed.status, 'failed');
    assert.match(failed.failure_reason, /provisioner_unavailable: .*SMS gateway down.*\(after 5 attempts\)/);
    assert.ok(Date.parse(failed.failed_at));
    assert.equal(await faultsInjected(t, acme.organizationId, 'sms.interview_reminder'), 5);
    assert.equal((await t.database.db('hi_sandbox_provisionings').where({ license_id: response.body.id })).length, 0);
    await waitFor(async () => eventsOf(t, acme.organizationId, 'license.failed').find((e) => e.payload.license_id === response.body.id), 'license.failed');
    assert.equal(await new KnexLicenseRepository(t.database.db).hasActive(acme.organizationId, 'sms.interview_reminder'), false);

    await planFault(t, { organizationId: acme.organizationId, actionKey: 'sms.interview_reminder', kind: 'transient', times: 0, reason: 'recovered' });
    const retry = await activate(t, 'sms.interview_reminder', acme.apiKey);
    assert.equal(retry.status, 202);
    assert.notEqual(retry.body.id, response.body.id);
    assert.equal((await settledLicense(t, acme.apiKey, retry.body.id)).status, 'active');
  });

  it('a final provisioner error fails at once, without retries', async () => {
    await planFault(t, { organizationId: acme.organizationId, actionKey: 'sms.two_factor_auth', kind: 'permanent', times: 1, reason: 'account suspended' });
    const response = await activate(t, 'sms.two_factor_auth', acme.apiKey);
    const failed = await settledLicense(t, acme.apiKey, response.body.id);
    assert.equal(failed.status, 'failed');
    assert.match(failed.failure_reason, /provisioning_rejected: .*account suspended.*\(after 1 attempt\)/);
    assert.equal(await faultsInjected(t, acme.organizationId, 'sms.two_factor_auth'), 1);
  });

  it('deactivating an active license deactivates it, tears down what was set up, and publishes license.deactivated', async () => {
    const active = (await activate(t, 'video_meetings.create_meeting_link', acme.apiKey)).body;
    await settledLicense(t, acme.apiKey, active.id);
    const response = await deactivate(t, 'video_meetings.create_meeting_link', acme.apiKey);
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.id, active.id);
    assert.equal(response.body.status, 'deactivated');
    assert.ok(Date.parse(response.body.deactivated_at));
    await waitFor(async () => (await t.database.db('hi_sandbox_provisionings').where({ license_id: active.id }).first())?.deprovisioned_at, 'deprovisioning');
    const event = eventsOf(t, acme.organizationId, 'license.deactivated').find((e) => e.payload.license_id === active.id);
    assert.ok(event);
    assert.equal(event.payload.entitled, false);
    assert.equal(await new KnexLicenseRepository(t.database.db).hasActive(acme.organizationId, 'video_meetings.create_meeting_link'), false);

    // Deactivated is final: deactivating again finds nothing live, activating makes a new license.
    assert.equal((await deactivate(t, 'video_meetings.create_meeting_link', acme.apiKey)).status, 404);
    const again = await activate(t, 'video_meetings.create_meeting_link', acme.apiKey);
    assert.equal(again.status, 202);
    assert.notEqual(again.body.id, active.id);
    assert.equal((await settledLicense(t, acme.apiKey, again.body.id)).status, 'active');
  });

  it('deactivating while provisioning stops it: the pending retry finds it deactivated and provisions nothing', async () => {
    await planFault(t, { organizationId: acme.organizationId, actionKey: 'hris.employee_sync', kind: 'transient', times: null, reason: 'HRIS unreachable' });
    const license = (await activate(t, 'hris.employee_sync', acme.apiKey)).body;
    await waitFor(async () => (await faultsInjected(t, acme.organizationId, 'hris.employee_sync')) >= 1 || undefined, 'a first failed attempt');
    const response = await deactivate(t, 'hris.employee_sync', acme.apiKey);
    assert.equal(response.status, 200);
    assert.equal(response.body.status, 'deactivated');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const after = await licenseOf(t, acme.apiKey, license.id);
    assert.equal(after.status, 'deactivated');
    assert.equal(after.failure_reason, null);
    assert.ok((await faultsInjected(t, acme.organizationId, 'hris.employee_sync')) <= 2, 'retries stop once deactivated');
  });

  it('deactivate refuses malformed and unknown keys, and actions never held', async () => {
    assert.equal((await deactivate(t, 'NOPE', acme.apiKey)).body.error.code, 'invalid_action_key');
    assert.equal((await deactivate(t, 'profile.read_minds', acme.apiKey)).status, 404);
    assert.equal((await deactivate(t, 'payroll.invoicing', acme.apiKey)).status, 404);
  });

  it('lists licenses newest first, filtered by status and action', async () => {
    const all = (await t.request('GET', '/v1/integrations/licenses', { auth: acme.apiKey })).body;
    assert.equal(all.object, 'list');
    const created = all.data.map((l: { created_at: string }) => Date.parse(l.created_at));
    assert.deepEqual(
      created,
      [...created].sort((a, b) => b - a),
    );
    const failed = (await t.request('GET', '/v1/integrations/licenses?status=failed', { auth: acme.apiKey })).body.data;
    assert.ok(failed.length >= 2 && failed.every((l: { status: string }) => l.status === 'failed'));
    const bad = await t.request('GET', '/v1/integrations/licenses?status=sleeping', { auth: acme.apiKey });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.param, 'status');
  });

  it('a provisioning job that runs twice provisions once', async () => {
    const [license] = (await t.request('GET', '/v1/integrations/licenses?action_key=profile.accept_application', { auth: acme.apiKey })).body.data;
    // The same job again under another id (a re-drive by hand, a duplicate delivery).
    await t.database.db('hi_outbox').insert({
      queue: 'license-provisioning',
      name: 'provision',
      job_id: `provision-${license.id}-again`,
      data: JSON.stringify({ license_id: license.id, step: 'provision' }),
    });
    await waitFor(
      async () =>
        (
          await t.database
            .db('hi_outbox')
            .where({ job_id: `provision-${license.id}-again` })
            .first()
        )?.dispatched_at,
      'relay',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal((await t.database.db('hi_sandbox_provisionings').where({ license_id: license.id })).length, 1);
    assert.equal((await licenseOf(t, acme.apiKey, license.id)).activated_at, license.activated_at);

    // And the provisioner itself is idempotent per license.
    const sandbox = new SandboxProvisioner(t.database.db, undefined);
    const request = { licenseId: license.id, organizationId: acme.organizationId, actionKey: license.action_key, groupKey: 'profile' };
    const first = await sandbox.provision(request);
    const second = await sandbox.provision(request);
    assert.equal(first.reference, second.reference);
  });
});
