/**
 * The Square connector (kind `pos`) against Prism serving Square's published OpenAPI description
 * (test/fixtures/square; every request validated against Square's contract, answers from its
 * examples): the connection test, a hire created as a team member with a new job and an hourly
 * wage, a known reference_id updated rather than duplicated (with an existing job and an annual
 * wage), a termination set INACTIVE, and Square's failures as stable codes.
 */
import { strict as assert } from 'node:assert';
import path from 'node:path';
import { squareConnector } from '../../src/connectors/square';
import { squareCredentials, squareSettings } from '../../src/connectors/square/settings';
import { isDomainError } from '../../src/kernel/errors';
import { PACKAGE_ROOT } from '../../src/platform/manifest/manifest';
import { activateLicense } from '../helpers/hooks';
import { eventsOf } from '../helpers/licensing';
import { rememberSecret } from '../helpers/log-capture';
import { startPrism, type PrismServer } from '../helpers/prism';
import { freePort } from '../helpers/processes';
import { waitFor } from '../helpers/profile-flow';
import { startTestHost, type TestHost } from '../helpers/test-host';

const SPEC = path.join(PACKAGE_ROOT, 'test/fixtures/square/team.openapi.json');
const TOKEN = 'EAAAEtestTOKENforPrism0123456789';

describe('pos: Square Team API (team members, jobs, wage settings)', function () {
  this.timeout(60_000);
  let prism: PrismServer;
  const settings = (base: string) => squareSettings.parse({ api_base_url: base });
  const credentials = squareCredentials.parse({ access_token: TOKEN });
  const member = {
    organizationId: 'org_1',
    actionKey: 'hris.pos_sync',
    idempotencyKey: 'pos-org_1-cand_new',
    referenceId: 'cand_new',
    givenName: 'Ada',
    familyName: 'Lovelace',
    email: 'ada@example.com',
    phone: '+14155550100',
    jobTitle: 'Line cook',
    wage: { amount: 1850, currency: 'USD', per: 'hour' as const },
  };

  let t: TestHost;
  let acme: { organizationId: string; apiKey: string };

  before(async () => {
    rememberSecret(TOKEN);
    [prism, t] = await Promise.all([startPrism(SPEC), startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0' } })]);
    acme = await t.createOrganization('Acme Diner');
  });
  after(async () => {
    await t?.close();
    await prism?.stop();
  });

  it('the connection test lists the jobs with the token', async () => {
    const outcome = await squareConnector.test(settings(prism.url), credentials);
    assert.equal(outcome.ok, true, JSON.stringify(outcome));
  });

  it('a new hire becomes a team member (reference_id = candidate id) with a new job and an hourly wage Square accepts', async () => {
    const synced = await squareConnector.open(settings(prism.url), credentials).syncTeamMember(member);
    assert.equal(typeof synced.teamMemberId, 'string');
    assert.equal(synced.reference, synced.teamMemberId);
  });

  it('a reference_id Square already holds is updated, never created again; an existing job is reused', async () => {
    // Square's published example holds a team member with reference_id 12345678 (id -3oZQKPKVk6gUXU_V5Qa) and a Cashier job.
    const port = squareConnector.open(settings(prism.url), credentials);
    const synced = await port.syncTeamMember({
      ...member,
      referenceId: '12345678',
      jobTitle: 'Cashier',
      wage: { amount: 3_000_000, currency: 'USD', per: 'year' },
    });
    assert.equal(synced.teamMemberId, '-3oZQKPKVk6gUXU_V5Qa');
    const ended = await port.deactivateTeamMember({ organizationId: 'org_1', actionKey: 'hris.pos_sync', idempotencyKey: 'end-1', referenceId: '12345678' });
    assert.equal(ended.teamMemberId, '-3oZQKPKVk6gUXU_V5Qa');
    await assert.rejects(
      port.deactivateTeamMember({ organizationId: 'org_1', actionKey: 'hris.pos_sync', idempotencyKey: 'end-2', referenceId: 'nobody' }),
      (e: unknown) => isDomainError(e) && e.code === 'employee_not_found',
    );
  });

  it('Square out of reach is a transient connection_unreachable; settings refuse clear-text tokens', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const outcome = await squareConnector.test(settings(closed), credentials);
    assert.equal(outcome.ok ? 'ok' : outcome.code, 'connection_unreachable');
    await assert.rejects(
      squareConnector.open(settings(closed), credentials).syncTeamMember(member),
      (e: unknown) => isDomainError(e) && e.kind === 'upstream' && e.code === 'connection_unreachable',
    );
    assert.ok(!squareSettings.safeParse({ api_base_url: 'http://connect.squareup.com' }).success);
    assert.ok(!squareCredentials.safeParse({ access_token: 'short' }).success);
  });

  it("hris.pos_sync: a restaurant hire becomes a team member (a run whose reference is Square's id), a termination sets it inactive", async () => {
    const hook = (name: string, payload: object) =>
      t.request('POST', `/host/v1/hooks/${name}`, { auth: t.operatorKey, body: { organization_id: acme.organizationId, payload } });
    const outcome = (body: { outcomes: { handler: string; result?: any; reason?: string }[] }, handler: string) =>
      body.outcomes.find((o) => o.handler === handler);
    const created = await t.request('POST', '/v1/integrations/connections', {
      auth: acme.apiKey,
      body: { connector: 'square', settings: { api_base_url: prism.url }, credentials: { access_token: TOKEN } },
    });
    assert.equal(created.status, 201, created.text);
    const tested = await t.request('POST', `/v1/integrations/connections/${created.body.id}/test`, { auth: acme.apiKey });
    assert.equal(tested.body.ok, true, tested.text);
    await activateLicense(t, acme.apiKey, 'hris.pos_sync');
    const hire = {
      candidate_id: 'cand_77',
      candidate: { name: 'Grace Brewster Hopper', email: 'grace@example.com' },
      job_title: 'Line cook',
      pay_rate: { amount: 1850, currency: 'USD', per: 'hour' },
    };
    const hired = await hook('candidate.hired', hire);
    assert.equal(hired.status, 200, hired.text);
    const synced = outcome(hired.body, 'pos-team-member-sync');
    assert.equal(typeof synced?.result?.team_member_id, 'string', JSON.stringify(hired.body));
    const runs = await t.request('GET', '/v1/integrations/runs?action=hris.pos_sync', { auth: acme.apiKey });
    assert.deepEqual(
      runs.body.data.map((r: { status: string; connector: string; reference: string }) => [r.status, r.connector, r.reference]),
      [['succeeded', 'square', synced!.result.team_member_id]],
    );
    const again = await hook('candidate.hired', hire);
    assert.equal(outcome(again.body, 'pos-team-member-sync')?.result?.team_member_id, synced!.result.team_member_id);
    assert.equal(
      (await t.request('GET', '/v1/integrations/runs?action=hris.pos_sync', { auth: acme.apiKey })).body.data.length,
      1,
      'a hire fired twice is one run',
    );
    // Square's published example holds reference_id 12345678: its termination finds that member.
    const ended = await hook('employee.terminated', { candidate_id: '12345678' });
    assert.equal(outcome(ended.body, 'pos-team-member-deactivate')?.result?.team_member_id, '-3oZQKPKVk6gUXU_V5Qa', JSON.stringify(ended.body));
    const unknown = await hook('employee.terminated', { candidate_id: 'cand_never_hired' });
    assert.match(String(outcome(unknown.body, 'pos-team-member-deactivate')?.reason), /employee_not_found/);
    await waitFor(async () => eventsOf(t, acme.organizationId, 'team_member.deactivated').length === 1, 'team_member.deactivated');

    // Rehired, then changed A → B → A (a pay-rate correction reverted): three updates; the retry of the last none; terminated again.
    const listRuns = async () =>
      (await t.request('GET', '/v1/integrations/runs?action=hris.pos_sync&limit=100', { auth: acme.apiKey })).body.data as { status: string }[];
    const before = (await listRuns()).length;
    const change = (amount: number) => ({ ...hire, candidate_id: '12345678', job_title: 'Cashier', pay_rate: { amount, currency: 'USD', per: 'hour' } });
    for (const amount of [1900, 2000, 1900]) {
      const updated = await hook('employee.updated', change(amount));
      assert.equal(outcome(updated.body, 'pos-team-member-update')?.result?.team_member_id, '-3oZQKPKVk6gUXU_V5Qa', updated.text);
    }
    await hook('employee.updated', change(1900));
    const second = await hook('employee.terminated', { candidate_id: '12345678' });
    assert.deepEqual(second.body.handled, ['pos-team-member-deactivate'], second.text);
    // (The host bus hears a retried hook's answer again; the event log records it once.)
    await waitFor(async () => eventsOf(t, acme.organizationId, 'team_member.deactivated').length === 2, 'a second team_member.deactivated');
    await hook('employee.terminated', { candidate_id: '12345678' });
    const after = await listRuns();
    assert.equal(after.length - before, 4, 'three updates and a second deactivation, no run for either retry');
    assert.deepEqual(
      after.slice(0, 4).map((r) => r.status),
      ['succeeded', 'succeeded', 'succeeded', 'succeeded'],
      'the newest four',
    );
  });
});
