/**
 * HRIS over SCIM 2.0 against a real SCIM service provider (scimmy + scimmy-routers on
 * Express): the connection test proves the token; a hire appears once (fired twice, still
 * one POST), a change is a PATCH of the same user, a termination sets active:false, a
 * cleared volunteer arrives with userType Volunteer; a user name held by someone else, a
 * directory answering garbage or refusing the token end as failed runs with their codes.
 * Volunteer hours: logged, corrected and voided by the organization with a reason (history
 * kept, audit-trailed, a stale revision refused); totals and the export follow the corrections.
 */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { activateLicense } from '../helpers/hooks';
import { waitFor } from '../helpers/profile-flow';
import { rememberSecret } from '../helpers/log-capture';
import { startScimServer, type TestScimServer } from '../helpers/scim-server';
import { startTestHost, type TestHost } from '../helpers/test-host';

const TOKEN = 'scim-token-3f9a1c7e5b2d';

describe('hris: employees and volunteers into an HR directory over SCIM 2.0', function () {
  this.timeout(60_000);
  let t: TestHost;
  let scim: TestScimServer;
  let acme: { organizationId: string; apiKey: string };
  let connectionId: string;

  const fire = (hook: string, payload: object, organizationId = acme.organizationId) =>
    t.request('POST', `/host/v1/hooks/${hook}`, { auth: t.operatorKey, body: { organization_id: organizationId, payload } });
  const byExternalId = (id: string) => [...scim.users.values()].filter((u) => u.externalId === id);
  const posts = () => scim.requests.filter((r) => r.method === 'POST').length;
  const run = async (id: string) => (await t.request('GET', `/v1/integrations/runs/${id}`, { auth: acme.apiKey })).body;
  // candidate.hired also reaches the payroll file handler (unlicensed here): read the HRIS handler's outcome.
  const sync = (body: { outcomes: { handler: string; reason?: string; result?: any }[] }): any => body.outcomes.find((o) => o.handler === 'hris-employee-sync');
  const hire = (candidateId: string, email: string, extra: object = {}) => ({
    candidate_id: candidateId,
    candidate: { name: 'Ada King Lovelace', email },
    job_title: 'Analyst',
    department: 'Engineering',
    ...extra,
  });

  before(async () => {
    rememberSecret(TOKEN);
    scim = await startScimServer(TOKEN);
    t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
    acme = await t.createOrganization('Acme');
    await activateLicense(t, acme.apiKey, 'hris.employee_sync');
    await activateLicense(t, acme.apiKey, 'hris.volunteer_management');
  });
  after(async () => {
    await t?.close();
    await scim?.close();
  });

  it('refuses a clear-text URL to another host; a wrong token fails the test with connection_auth_failed', async () => {
    const clear = await t.request('POST', '/v1/integrations/connections', {
      auth: acme.apiKey,
      body: { connector: 'scim', settings: { base_url: 'http://hr.example.com/scim/v2' }, credentials: { token: TOKEN } },
    });
    assert.equal(clear.status, 400, clear.text);
    assert.equal(clear.body.error.param, 'settings.base_url');
    const created = await t.request('POST', '/v1/integrations/connections', {
      auth: acme.apiKey,
      body: { connector: 'scim', settings: { base_url: scim.baseUrl }, credentials: { token: 'not-the-token' } },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.kind, 'hris');
    connectionId = created.body.id;
    const tested = await t.request('POST', `/v1/integrations/connections/${connectionId}/test`, { auth: acme.apiKey });
    assert.equal(tested.body.ok, false, tested.text);
    assert.equal(tested.body.code, 'connection_auth_failed');
  });

  it('the right token verifies: ServiceProviderConfig says SCIM with PATCH', async () => {
    const patched = await t.request('PATCH', `/v1/integrations/connections/${connectionId}`, { auth: acme.apiKey, body: { credentials: { token: TOKEN } } });
    assert.equal(patched.status, 200, patched.text);
    const tested = await t.request('POST', `/v1/integrations/connections/${connectionId}/test`, { auth: acme.apiKey });
    assert.equal(tested.body.ok, true, tested.text);
    assert.ok(!tested.text.includes(TOKEN));
    assert.ok(scim.requests.some((r) => r.path === '/ServiceProviderConfig'));
  });

  it('a hire appears once in the directory, with the enterprise extension; fired again, nothing more is sent', async () => {
    const first = await fire('candidate.hired', hire('cand_ada', 'ada@acme.example'));
    assert.deepEqual(first.body.handled, ['hris-employee-sync'], first.text);
    const [user] = byExternalId('cand_ada');
    assert.ok(user, 'the user exists');
    assert.equal(sync(first.body).result.employee_id, user.id);
    assert.equal(user.userName, 'ada@acme.example');
    assert.equal(user.userType, 'Employee');
    assert.equal(user.active, true);
    assert.deepEqual(user.name, { formatted: 'Ada King Lovelace', givenName: 'Ada King', familyName: 'Lovelace' });
    assert.equal(user['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User']?.department, 'Engineering');
    const runs = await t.request('GET', '/v1/integrations/runs?action=hris.employee_sync', { auth: acme.apiKey });
    assert.equal(runs.body.data[0].status, 'succeeded');
    assert.equal(runs.body.data[0].connector, 'scim');
    assert.equal(runs.body.data[0].livemode, true);
    assert.equal(runs.body.data[0].reference, user.id);
    const before = scim.requests.length;
    const again = await fire('candidate.hired', hire('cand_ada', 'ada@acme.example'));
    assert.equal(sync(again.body).result.employee_id, user.id);
    assert.equal(scim.requests.length, before, 'a succeeded run is answered from the record');
    assert.equal(byExternalId('cand_ada').length, 1);
  });

  it('a change is a PATCH of the same user; a termination sets active:false; a rehire reactivates, never a second user', async () => {
    const postsBefore = posts();
    const changed = await fire('employee.updated', hire('cand_ada', 'ada@acme.example', { job_title: 'Lead Analyst', department: 'Research' }));
    assert.deepEqual(changed.body.handled, ['hris-employee-update'], changed.text);
    let [user] = byExternalId('cand_ada');
    assert.equal(user.title, 'Lead Analyst');
    assert.equal(user['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User']?.department, 'Research');
    const terminated = await fire('employee.terminated', { candidate_id: 'cand_ada', terminated_on: '2026-12-31' });
    assert.deepEqual(terminated.body.handled, ['hris-employee-deactivate'], terminated.text);
    [user] = byExternalId('cand_ada');
    assert.equal(user.active, false);
    const rehired = await fire('employee.updated', hire('cand_ada', 'ada@acme.example', { job_title: 'Principal' }));
    assert.deepEqual(rehired.body.handled, ['hris-employee-update'], rehired.text);
    [user] = byExternalId('cand_ada');
    assert.equal(user.active, true);
    assert.equal(posts(), postsBefore, 'no POST for an existing person');
    assert.equal(byExternalId('cand_ada').length, 1);
    const unknown = await fire('employee.terminated', { candidate_id: 'cand_nobody' });
    // The payroll and POS handlers listen to employee.terminated too (unlicensed here, so skipped).
    assert.deepEqual(unknown.body.skipped, ['hris-employee-deactivate', 'payroll-termination-record', 'pos-team-member-deactivate'], unknown.text);
    assert.match(unknown.body.outcomes.find((o: { handler: string }) => o.handler === 'hris-employee-deactivate').reason, /^employee_not_found/);
  });

  it('a change back (A → B → A) is sent, its retry is not; terminate → rehire → terminate deactivates twice', async () => {
    const patches = () => scim.requests.filter((r) => r.method === 'PATCH').length;
    const title = () => byExternalId('cand_grace')[0]?.title;
    await fire('candidate.hired', hire('cand_grace', 'grace@acme.example'));
    const patchesBefore = patches();
    for (const jobTitle of ['Lead Analyst', 'Principal', 'Lead Analyst']) {
      const changed = await fire('employee.updated', hire('cand_grace', 'grace@acme.example', { job_title: jobTitle }));
      assert.deepEqual(changed.body.handled, ['hris-employee-update'], changed.text);
      assert.equal(title(), jobTitle);
    }
    assert.equal(patches() - patchesBefore, 3, 'three updates, the change back included');
    let requests = scim.requests.length;
    await fire('employee.updated', hire('cand_grace', 'grace@acme.example', { job_title: 'Lead Analyst' }));
    assert.equal(scim.requests.length, requests, 'a retry of the last change sends nothing');
    const active = () => byExternalId('cand_grace')[0]?.active;
    await fire('employee.terminated', { candidate_id: 'cand_grace' });
    assert.equal(active(), false);
    const rehired = await fire('candidate.hired', hire('cand_grace', 'grace@acme.example'));
    assert.equal(sync(rehired.body).result.employee_id, byExternalId('cand_grace')[0]?.id, rehired.text);
    assert.equal(active(), true, 'a rehire re-activates');
    assert.equal(title(), 'Analyst');
    await fire('employee.terminated', { candidate_id: 'cand_grace', terminated_on: '2027-03-01' });
    assert.equal(active(), false, 'the second termination deactivates');
    requests = scim.requests.length;
    await fire('employee.terminated', { candidate_id: 'cand_grace', terminated_on: '2027-03-01' });
    assert.equal(scim.requests.length, requests, 'a retried termination sends nothing');
    assert.equal(byExternalId('cand_grace').length, 1);
    assert.equal(patches() - patchesBefore, 6);
    // Two identical hooks at once (the host retrying while the first is in flight): one revision, one run (the DB's unique key).
    const runCount = async () => (await t.request('GET', '/v1/integrations/runs?action=hris.employee_sync&limit=100', { auth: acme.apiKey })).body.data.length;
    const runsBefore = await runCount();
    const both = await Promise.all([0, 1].map(() => fire('employee.updated', hire('cand_grace', 'grace@acme.example', { job_title: 'Fellow' }))));
    assert.deepEqual(
      both.map((r) => r.body.handled),
      [['hris-employee-update'], ['hris-employee-update']],
    );
    assert.equal((await runCount()) - runsBefore, 1, 'concurrent copies of one change are one run');
    assert.equal(title(), 'Fellow');
  });

  it('a cleared volunteer is provisioned with userType Volunteer', async () => {
    const cleared = await fire('volunteer.cleared', {
      candidate_id: 'vol_grace',
      candidate: { name: 'Grace Hopper', email: 'grace@pta.example' },
      school: 'Lincoln Elementary',
    });
    assert.deepEqual(cleared.body.handled, ['hris-volunteer-provision'], cleared.text);
    const [user] = byExternalId('vol_grace');
    assert.equal(user.userType, 'Volunteer');
    assert.equal(user.title, 'Volunteer');
    assert.equal(user['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User']?.department, 'Lincoln Elementary');
  });

  it('a user name held by another person: 409 uniqueness, the lookup finds no such externalId, the run fails employee_conflict', async () => {
    const clash = await fire('candidate.hired', hire('cand_other', 'ada@acme.example'));
    assert.ok(clash.body.skipped.includes('hris-employee-sync'), clash.text);
    assert.match(sync(clash.body).reason, /^employee_conflict/);
    assert.equal(byExternalId('cand_other').length, 0);
    const failed = await t.request('GET', '/v1/integrations/runs?status=failed', { auth: acme.apiKey });
    assert.ok(
      failed.body.data.some((r: { error: { code: string } | null }) => r.error?.code === 'employee_conflict'),
      failed.text,
    );
  });

  it('a directory answering garbage is counterpart_invalid_response; one refusing the token is connection_auth_failed', async () => {
    scim.answerNext(200, '<html>maintenance</html>');
    const garbage = await fire('candidate.hired', hire('cand_bob', 'bob@acme.example'));
    assert.match(sync(garbage.body).reason, /^counterpart_invalid_response/, garbage.text);
    const runId = (await t.request('GET', '/v1/integrations/runs?status=failed', { auth: acme.apiKey })).body.data[0].id;
    assert.equal((await run(runId)).error.code, 'counterpart_invalid_response');
    scim.answerNext(401, '{"schemas":["urn:ietf:params:scim:api:messages:2.0:Error"],"status":"401","detail":"expired"}');
    const refused = await fire('candidate.hired', hire('cand_carol', 'carol@acme.example'));
    assert.match(sync(refused.body).reason, /^connection_auth_failed/, refused.text);
    assert.equal(byExternalId('cand_bob').length + byExternalId('cand_carol').length, 0);
  });

  it("hours logged per volunteer: a volunteer's entries and exact total, the period's volunteer_hours.v1 export as an action run", async () => {
    const log = (body: object) => t.request('POST', '/v1/volunteers/hours', { auth: acme.apiKey, body });
    const entry = { volunteer_id: 'cand_vol_1', volunteer_name: 'Grace Hopper', volunteer_email: 'grace@school.example', school: 'Lincoln Elementary' };
    assert.equal((await log({ ...entry, date: '2026-11-02', minutes: 150, activity: '=Library' })).status, 201);
    assert.equal((await log({ ...entry, date: '2026-11-09', minutes: 95 })).status, 201);
    assert.equal((await log({ ...entry, volunteer_id: 'cand_vol_2', volunteer_email: 'alan@school.example', date: '2026-11-03', minutes: 60 })).status, 201);
    const tooLong = await log({ ...entry, date: '2026-11-10', minutes: 1441 });
    assert.deepEqual([tooLong.status, tooLong.body.error.param], [400, 'minutes']);
    const future = await log({ ...entry, date: '2099-01-01', minutes: 10 });
    assert.deepEqual([future.status, future.body.error.code], [400, 'date_in_future']);
    const listed = (await t.request('GET', '/v1/volunteers/hours?volunteer_id=cand_vol_1', { auth: acme.apiKey })).body;
    assert.deepEqual([listed.data.map((e: { minutes: number }) => e.minutes), listed.total_minutes], [[150, 95], 245]);
    const exported = await t.request('POST', '/v1/volunteers/hours_exports', { auth: acme.apiKey, body: { from: '2026-11-01', to: '2026-11-05' } });
    assert.equal(exported.status, 201, exported.text);
    assert.deepEqual([exported.body.rows, exported.body.total_minutes], [2, 210]);
    assert.equal(
      exported.body.content,
      'format,volunteer_id,volunteer_name,date,minutes,school,activity\r\n' +
        "volunteer_hours.v1,cand_vol_1,Grace Hopper,2026-11-02,150,Lincoln Elementary,'=Library\r\n" +
        'volunteer_hours.v1,cand_vol_2,Grace Hopper,2026-11-03,60,Lincoln Elementary,\r\n',
    );
    const exportRun = await run(exported.body.run_id);
    assert.deepEqual([exportRun.status, exportRun.action, exportRun.reference], ['succeeded', 'hris.volunteer_management', `sha256:${exported.body.sha256}`]);
  });
  it('hours corrected or voided with a reason: history kept and audit-trailed, totals and the export follow, a stale revision or another organization refused', async () => {
    const base = { volunteer_id: 'cand_vol_3', volunteer_name: 'Mary Jackson', volunteer_email: 'mary@school.example', school: 'Lincoln Elementary' };
    const logged = await t.request('POST', '/v1/volunteers/hours', { auth: acme.apiKey, body: { ...base, date: '2026-11-12', minutes: 180 } });
    const second = await t.request('POST', '/v1/volunteers/hours', { auth: acme.apiKey, body: { ...base, date: '2026-11-13', minutes: 45 } });
    assert.deepEqual([logged.status, logged.body.status, logged.body.revision], [201, 'logged', 1]);
    const id = logged.body.id as string;
    const patch = (body: object, hoursId = id, apiKey = acme.apiKey) => t.request('PATCH', `/v1/volunteers/hours/${hoursId}`, { auth: apiKey, body });
    const corrected = await patch({ minutes: 120, activity: 'Library reading hour', reason: 'Signed out at 11:30, not 12:30', revision: 1 });
    assert.equal(corrected.status, 200, corrected.text);
    assert.deepEqual([corrected.body.minutes, corrected.body.revision, corrected.body.status], [120, 2, 'logged']);
    assert.deepEqual(
      corrected.body.changes.map((c: any) => [c.kind, c.revision, c.reason, c.before.minutes, c.after.minutes, c.after.activity]),
      [['corrected', 2, 'Signed out at 11:30, not 12:30', 180, 120, 'Library reading hour']],
    );
    const stale = await patch({ minutes: 100, reason: 'again', revision: 1 });
    assert.deepEqual([stale.status, stale.body.error?.code], [409, 'volunteer_hours_changed']);
    const empty = await patch({ minutes: 120, reason: 'same' });
    assert.deepEqual([empty.status, empty.body.error?.code], [400, 'correction_empty']);
    const noReason = await patch({ minutes: 90 });
    assert.deepEqual([noReason.status, noReason.body.error?.param], [400, 'reason']);
    const future = await patch({ date: '2099-01-01', reason: 'typo' });
    assert.deepEqual([future.status, future.body.error?.code], [400, 'date_in_future']);

    const voided = await t.request('POST', `/v1/volunteers/hours/${second.body.id}/void`, { auth: acme.apiKey, body: { reason: 'Logged twice' } });
    assert.equal(voided.status, 200, voided.text);
    assert.deepEqual([voided.body.status, voided.body.revision, voided.body.changes[0].kind, voided.body.changes[0].after], ['voided', 2, 'voided', null]);
    const again = await t.request('POST', `/v1/volunteers/hours/${second.body.id}/void`, { auth: acme.apiKey, body: { reason: 'Logged twice' } });
    assert.deepEqual([again.status, again.body.error?.code], [409, 'volunteer_hours_voided']);
    assert.deepEqual((await patch({ minutes: 30, reason: 'x' }, second.body.id)).body.error?.code, 'volunteer_hours_voided');

    const listed = (await t.request('GET', '/v1/volunteers/hours?volunteer_id=cand_vol_3', { auth: acme.apiKey })).body;
    assert.deepEqual([listed.data.map((e: { minutes: number }) => e.minutes), listed.total_minutes], [[120], 120], 'the voided entry counts for nothing');
    const all = (await t.request('GET', '/v1/volunteers/hours?volunteer_id=cand_vol_3&include_voided=true', { auth: acme.apiKey })).body;
    assert.deepEqual([all.data.map((e: { status: string }) => e.status), all.total_minutes], [['logged', 'voided'], 120]);
    const exported = await t.request('POST', '/v1/volunteers/hours_exports', { auth: acme.apiKey, body: { from: '2026-11-12', to: '2026-11-13' } });
    assert.deepEqual([exported.body.rows, exported.body.total_minutes], [1, 120]);
    assert.match(exported.body.content, /cand_vol_3,Mary Jackson,2026-11-12,120,Lincoln Elementary,Library reading hour\r\n$/);
    assert.equal(exported.body.sha256, createHash('sha256').update(exported.body.content).digest('hex'));
    const history = (await t.request('GET', `/v1/volunteers/hours/${id}`, { auth: acme.apiKey })).body;
    assert.deepEqual(history.changes.length, 1);

    // The trail is written after the answer: both changes appear, with their operation.
    await waitFor(async () => {
      const actions = (await t.database.db('hi_audit_events').where({ organization_id: acme.organizationId }).select('action')).map(
        (a: { action: string }) => a.action,
      );
      return actions.includes('correctVolunteerHours') && actions.includes('voidVolunteerHours') ? true : undefined;
    }, 'the correction and the void in the audit trail');

    const globex = await t.createOrganization('Globex');
    await activateLicense(t, globex.apiKey, 'hris.volunteer_management');
    assert.equal((await patch({ minutes: 1, reason: 'x' }, id, globex.apiKey)).status, 404);
    assert.equal((await t.request('GET', `/v1/volunteers/hours/${id}`, { auth: globex.apiKey })).status, 404);
  });
});
