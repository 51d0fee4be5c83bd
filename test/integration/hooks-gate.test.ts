/**
 * License-gated hooks through a real host (PostgreSQL + BullMQ in CI, PGlite + in-process
 * jobs embedded): the operator hook endpoint, handlers running for a licensed
 * organization and skipped for an unlicensed one, refused payloads, sandbox connector
 * deliveries, the catalog's per-action handler flag, metrics, and the gate following
 * activation and deactivation in this process.
 */
import { strict as assert } from 'node:assert';
import { activateLicense, CREDENTIAL_CHECK_ACTIONS, GATED_ACTIONS } from '../helpers/hooks';
import { startTestHost, type TestHost } from '../helpers/test-host';

const inThreeHours = () => new Date(Date.now() + 3 * 3600_000).toISOString().replace(/\.\d+Z$/, 'Z');

describe('hooks: license gate over the operator endpoint', function () {
  this.timeout(60_000);
  let t: TestHost;
  let acme: { organizationId: string; apiKey: string };
  let globex: { organizationId: string; apiKey: string };
  const fire = (hook: string, organizationId: string, payload: object, auth?: string) =>
    t.request('POST', `/host/v1/hooks/${hook}`, { auth: auth ?? t.operatorKey, body: { organization_id: organizationId, payload } });
  const interview = (id: string) => ({
    interview_id: id,
    candidate: { name: 'Ada Lovelace', email: 'ada@example.com', phone: '+14155550123' },
    interviewers: [{ name: 'Grace Hopper', email: 'grace@example.com' }],
    starts_at: inThreeHours(),
    title: 'Onsite interview',
  });

  before(async () => {
    t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
    acme = await t.createOrganization('Acme');
    globex = await t.createOrganization('Globex');
    for (const action of GATED_ACTIONS) await activateLicense(t, acme.apiKey, action);
  });
  after(() => t?.close());

  it('runs every interview.scheduled handler for the licensed organization, and reports what they did', async () => {
    const response = await fire('interview.scheduled', acme.organizationId, interview('int_100'));
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.object, 'hook_result');
    assert.deepEqual(response.body.handled, ['interview-reminder', 'sms-interview-reminder', 'video-meeting-link']);
    assert.deepEqual(response.body.skipped, []);
    const meeting = response.body.outcomes.find((o: any) => o.handler === 'video-meeting-link');
    assert.match(meeting.result.join_url, /^https:\/\/meet\.sandbox\.invalid\/mtg_/);
    const reminder = response.body.outcomes.find((o: any) => o.handler === 'interview-reminder');
    assert.equal(reminder.result.job_id, `reminder-email-${acme.organizationId}-int_100-1`);
    const rows = await t.database.db('hi_interview_reminders').where({ organization_id: acme.organizationId, interview_id: 'int_100' }).orderBy('channel');
    assert.deepEqual(
      rows.map((r: any) => `${r.channel} ${r.status}`),
      ['email scheduled', 'sms scheduled'],
    );
    const deliveries = await t.database.db('hi_connector_deliveries').where({ organization_id: acme.organizationId, connector: 'video_meetings' });
    assert.equal(deliveries.length, 1);
    assert.equal(t.host.hooks.recent.filter((e) => e.organizationId === acme.organizationId && e.hook === 'interview.meeting_link_created').length, 1);
  });

  it('skips every handler for an unlicensed organization: no error, no work, the reason given', async () => {
    const response = await fire('interview.scheduled', globex.organizationId, interview('int_200'));
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body.handled, []);
    assert.deepEqual(response.body.skipped, ['interview-reminder', 'sms-interview-reminder', 'video-meeting-link']);
    assert.ok(response.body.outcomes.every((o: any) => o.reason === 'license_inactive'));
    assert.equal((await t.database.db('hi_interview_reminders').where({ organization_id: globex.organizationId })).length, 0);
    assert.equal((await t.database.db('hi_connector_deliveries').where({ organization_id: globex.organizationId })).length, 0);
    for (const [hook, payload, handlers] of [
      ['offer.created', { offer_id: 'off_1', candidate: { name: 'Ada', email: 'ada@example.com' } }, 1],
      // candidate.hired: the HRIS sync, the payroll new-hire file, continuous monitoring, the POS team member and KYC onboarding.
      ['candidate.hired', { candidate_id: 'cand_1', candidate: { name: 'Ada', email: 'ada@example.com' } }, 5],
    ] as const) {
      const skipped = await fire(hook, globex.organizationId, payload);
      assert.equal(skipped.body.handled.length, 0, hook);
      assert.equal(skipped.body.skipped.length, handlers, hook);
    }
  });

  it('offer.created sends the offer for signature and candidate.hired syncs the employee, once per id', async () => {
    const offer = { offer_id: 'off_7', candidate: { name: 'Ada Lovelace', email: 'ada@example.com' }, document_url: 'https://ats.example.com/offers/7.pdf' };
    const first = await fire('offer.created', acme.organizationId, offer);
    assert.deepEqual(first.body.handled, ['esign-offer']);
    const again = await fire('offer.created', acme.organizationId, offer);
    assert.equal(again.body.outcomes[0].result.envelope_id, first.body.outcomes[0].result.envelope_id);
    const hired = await fire('candidate.hired', acme.organizationId, {
      candidate_id: 'cand_7',
      candidate: { name: 'Ada Lovelace', email: 'ada@example.com' },
      job_title: 'Engineer',
      start_date: '2030-04-01',
    });
    assert.deepEqual(hired.body.handled, ['hris-employee-sync']);
    assert.match(hired.body.outcomes[0].result.employee_id, /^emp_/);
    const rows = await t.database.db('hi_connector_deliveries').where({ organization_id: acme.organizationId }).whereIn('connector', ['hris']);
    assert.deepEqual(
      rows.map((r: any) => r.connector),
      ['hris'],
    );
    // The offer is the plugin's own envelope (esign feature), its link emailed through the email port (the sandbox here).
    const envelopes = await t.database.db('hi_esign_envelopes').where({ organization_id: acme.organizationId, reference_id: 'off_7' });
    assert.equal(envelopes.length, 1);
    assert.equal(envelopes[0].id, first.body.outcomes[0].result.envelope_id);
    assert.equal(envelopes[0].signer_email, 'ada@example.com');
    assert.ok(envelopes[0].email_run_id, 'the link went out as an action run');
  });

  it('a bad payload is a skip with its reason, never a crash; other handlers of the hook still run', async () => {
    const response = await fire('interview.scheduled', acme.organizationId, { ...interview('int_300'), candidate: { name: 'Ada', email: 'ada@example.com' } });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.handled, ['interview-reminder', 'video-meeting-link']);
    const sms = response.body.outcomes.find((o: any) => o.handler === 'sms-interview-reminder');
    assert.equal(sms.status, 'skipped');
    assert.match(sms.reason, /^invalid_payload: candidate\.phone/);
    const garbage = await fire('offer.created', acme.organizationId, { offer_id: 42 });
    assert.equal(garbage.status, 200);
    assert.equal(garbage.body.outcomes[0].status, 'skipped');
    assert.match(garbage.body.outcomes[0].reason, /^invalid_payload: offer_id/);
    const past = await fire('interview.scheduled', acme.organizationId, { ...interview('int_301'), starts_at: '2001-01-01T00:00:00Z' });
    assert.match(past.body.outcomes[0].reason, /^interview_in_past/);
  });

  it('the endpoint takes the operator credential only, and refuses unknown hooks and bad bodies', async () => {
    const none = await t.request('POST', '/host/v1/hooks/offer.created', { body: { organization_id: acme.organizationId, payload: {} } });
    assert.equal(none.status, 401);
    const org = await fire('offer.created', acme.organizationId, {}, acme.apiKey);
    assert.equal(org.status, 403, 'an organization key is valid, but not the operator credential');
    assert.equal(org.body.error.code, 'operator_only');
    const forged = await fire('offer.created', acme.organizationId, {}, acme.apiKey.slice(0, -4) + 'AAAA');
    assert.equal(forged.status, 401);
    const unknown = await fire('nothing.happened', acme.organizationId, {});
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, 'unknown_hook');
    const bad = await t.request('POST', '/host/v1/hooks/offer.created', { auth: t.operatorKey, body: { organization_id: 'acme', payload: {} } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.param, 'organization_id');
    const badName = await fire('Offer Created', acme.organizationId, {});
    assert.equal(badName.status, 400);
  });

  it('the catalog shows, per action, whether this installation has a hook handler for it', async () => {
    const catalog = await t.request('GET', '/v1/integrations/catalog', { auth: acme.apiKey });
    assert.equal(catalog.status, 200);
    const actions = catalog.body.groups.flatMap((g: any) => g.actions);
    const withHandler = actions
      .filter((a: any) => a.has_hook_handler)
      .map((a: any) => a.key)
      .sort();
    // Also gated, licensed in their own tests: volunteer provisioning, payroll files and POS team members (hris-scim, payroll-sftp, pos-square),
    // status updates and call sheets (messages), the vendor background checks (background-checks), KYC onboarding from a hire (payouts-instant-pay).
    const elsewhere = [
      'hris.volunteer_management',
      'payroll.payroll_sync',
      'hris.pos_sync',
      'notifications.status_update',
      'notifications.call_sheet_distribution',
      'background_checks.run_check',
      'background_checks.route_verification',
      'background_checks.continuous_monitoring',
      // time-off hooks (availability-sync)
      'scheduling.availability_sync',
      // shift.published / updated / cancelled (shifts)
      'scheduling.shift_scheduling',
      'payouts.kyc_verification',
      // esign.send_agreement's agreement.requested handler (esign).
      'esign.send_agreement',
    ];
    assert.deepEqual(withHandler, [...GATED_ACTIONS, ...CREDENTIAL_CHECK_ACTIONS, ...elsewhere].sort());
    const reminder = actions.find((a: any) => a.key === 'notifications.interview_reminder');
    assert.deepEqual(reminder.hook_handlers.map((h: any) => h.name).sort(), [
      'interview-reminder',
      'interview-reminder-cancel',
      'interview-reminder-reschedule',
    ]);
    const profile = actions.find((a: any) => a.key === 'profile.accept_application');
    assert.equal(profile.has_hook_handler, false);
    assert.deepEqual(profile.hook_handlers, []);
  });

  it('gate decisions are counted in /metrics (allowed and skipped, per action)', async () => {
    const metrics = await t.request('GET', '/metrics', { auth: t.operatorKey });
    assert.equal(metrics.status, 200);
    assert.match(metrics.text, /hiring_integrations_gate_checks_total\{action="video_meetings.create_meeting_link",result="allowed"\} [1-9]/);
    assert.match(metrics.text, /hiring_integrations_gate_checks_total\{action="video_meetings.create_meeting_link",result="skipped"\} [1-9]/);
    assert.match(metrics.text, /hiring_integrations_entitlement_cache_lookups_total\{result="hit"\} [1-9]/);
  });

  it('follows deactivation and activation at once in this process (the cache is invalidated by the change)', async () => {
    const offer = (id: string) => ({ offer_id: id, candidate: { name: 'Ada', email: 'ada@example.com' } });
    assert.deepEqual((await fire('offer.created', acme.organizationId, offer('off_a'))).body.handled, ['esign-offer']);
    const off = await t.request('POST', '/v1/integrations/licenses/esign.send_offer/deactivate', { auth: acme.apiKey });
    assert.equal(off.status, 200, off.text);
    assert.deepEqual((await fire('offer.created', acme.organizationId, offer('off_b'))).body.skipped, ['esign-offer']);
    await activateLicense(t, acme.apiKey, 'esign.send_offer');
    assert.deepEqual((await fire('offer.created', acme.organizationId, offer('off_c'))).body.handled, ['esign-offer']);
  });

  it("deactivating a reminder action cancels the organization's pending reminders of that channel", async () => {
    await fire('interview.scheduled', acme.organizationId, interview('int_400'));
    const off = await t.request('POST', '/v1/integrations/licenses/sms.interview_reminder/deactivate', { auth: acme.apiKey });
    assert.equal(off.status, 200, off.text);
    const sms = await t.database.db('hi_interview_reminders').where({ organization_id: acme.organizationId, interview_id: 'int_400', channel: 'sms' }).first();
    assert.equal(sms.status, 'canceled');
    assert.equal(sms.reason, 'license_deactivated');
    const email = await t.database
      .db('hi_interview_reminders')
      .where({ organization_id: acme.organizationId, interview_id: 'int_400', channel: 'email' })
      .first();
    assert.equal(email.status, 'scheduled');
  });
});
