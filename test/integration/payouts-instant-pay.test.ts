/**
 * Payouts end to end through the API, against Prism serving Stripe's published OpenAPI
 * description (every request validated against Stripe's contract) and Connect webhooks signed
 * with the `stripe` package's own test helper: a worker is onboarded (connected account,
 * hosted KYC link), refused payment before KYC completes, completed by a signed
 * `account.updated`, paid (transfer + instant payout, never twice for one reference), and
 * settled by `payout.paid` / `payout.failed`. Forged webhooks, another organization, no
 * license and no connection each get their stable code. A timesheet approved by the client's
 * contact pays its worker once (reference timesheet:<id>); one whose worker cannot be paid is
 * a failed run with its code and a timesheet.payout_failed event. A hire (candidate.hired)
 * gets a connected account and the onboarding link by email, once. An approved timesheet whose
 * payout job never reached the queue (the approval committed, the enqueue died) is found by
 * the reconciliation sweep and paid exactly once; a worker who cannot be paid fails once.
 */
import { strict as assert } from 'node:assert';
import path from 'node:path';
import Stripe from 'stripe';
import { SignedLinks } from '../../src/features/messages/domain/signed-links';
import { PACKAGE_ROOT } from '../../src/platform/manifest/manifest';
import { deriveKey } from '../../src/platform/security/key-derivation';
import { activateLicense } from '../helpers/hooks';
import { eventsOf } from '../helpers/licensing';
import { rememberSecret } from '../helpers/log-capture';
import { startPrism, type PrismServer } from '../helpers/prism';
import { waitFor } from '../helpers/profile-flow';
import { startTestHost, type TestHost } from '../helpers/test-host';

const SPEC = path.join(PACKAGE_ROOT, 'test/fixtures/stripe/connect.openapi.json');
const KEY = 'sk_test_4eC39HqLyjWDarjtT1zdp7dc';
const WHSEC = 'whsec_9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d';

describe('payouts: KYC onboarding and instant pay over Stripe Connect (API, webhooks)', function () {
  this.timeout(60_000);
  let prism: PrismServer;
  let t: TestHost;
  let acme: { organizationId: string; apiKey: string };
  let globex: { organizationId: string; apiKey: string };
  let connectionId: string;
  const stripe = new Stripe(KEY);
  let clock = Math.floor(Date.now() / 1000) - 200;

  /** A Connect event as Stripe sends it, signed with the endpoint's secret (or another). */
  const webhook = (organizationId: string, type: string, object: object, options: { account?: string; secret?: string; created?: number } = {}) => {
    const payload = JSON.stringify({
      id: `evt_${type.replace('.', '_')}_${clock}`,
      object: 'event',
      type,
      livemode: false,
      api_version: '2020-08-27',
      created: options.created ?? ++clock,
      ...(options.account ? { account: options.account } : {}),
      data: { object },
    });
    const header = stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? WHSEC });
    return t.request('POST', `/v1/payouts/webhooks/${organizationId}/${connectionId}`, {
      rawBody: payload,
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
    });
  };
  const account = (id: string, state: { payouts_enabled: boolean; currently_due: string[]; disabled_reason?: string | null }) => ({
    id,
    object: 'account',
    metadata: {},
    payouts_enabled: state.payouts_enabled,
    requirements: { currently_due: state.currently_due, disabled_reason: state.disabled_reason ?? null },
  });
  const run = (id: string) => t.request('GET', `/v1/integrations/runs/${id}`, { auth: acme.apiKey });

  before(async () => {
    rememberSecret(KEY);
    rememberSecret(WHSEC);
    [prism, t] = await Promise.all([
      startPrism(SPEC),
      startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0', RECONCILE_AFTER_SECONDS: '1', RECONCILE_INTERVAL_SECONDS: '1' } }),
    ]);
    [acme, globex] = await Promise.all([t.createOrganization('Acme Gigs'), t.createOrganization('Globex')]);
    await activateLicense(t, acme.apiKey, 'payouts.kyc_verification');
    await activateLicense(t, acme.apiKey, 'payouts.instant_pay');
    const created = await t.request('POST', '/v1/integrations/connections', {
      auth: acme.apiKey,
      body: {
        connector: 'stripe-connect',
        settings: { api_base_url: prism.url, onboarding_refresh_url: 'https://gigs.example/expired', onboarding_return_url: 'https://gigs.example/done' },
        credentials: { secret_key: KEY, webhook_secret: WHSEC },
      },
    });
    assert.equal(created.status, 201, created.text);
    connectionId = created.body.id;
    const tested = await t.request('POST', `/v1/integrations/connections/${connectionId}/test`, { auth: acme.apiKey });
    assert.equal(tested.body.ok, true, tested.text);
  });
  after(async () => {
    await t?.close();
    await prism?.stop();
  });

  let worker: { id: string; account_id: string };

  it('a worker gets a connected account and a hosted onboarding link (one account per reference), and cannot be paid before KYC', async () => {
    const body = { reference: 'cand_1001', email: 'ada@example.com', country: 'US' };
    const created = await t.request('POST', '/v1/payouts/workers', { auth: acme.apiKey, body });
    assert.equal(created.status, 201, created.text);
    worker = created.body.worker;
    assert.equal(created.body.worker.kyc_status, 'onboarding');
    assert.equal(created.body.worker.livemode, false, 'a Stripe test key: test mode');
    assert.equal(typeof worker.account_id, 'string');
    assert.equal(typeof created.body.onboarding.url, 'string');
    assert.equal(created.body.onboarding.sent_by, 'none');
    const onboarding = await run(created.body.onboarding.run_id);
    assert.deepEqual(
      [onboarding.body.status, onboarding.body.action, onboarding.body.connector, onboarding.body.reference],
      ['succeeded', 'payouts.kyc_verification', 'stripe-connect', worker.account_id],
    );
    const again = await t.request('POST', '/v1/payouts/workers', { auth: acme.apiKey, body });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.worker.id, worker.id, 'the same reference is the same worker');
    const link = await t.request('POST', `/v1/payouts/workers/${worker.id}/onboarding_link`, { auth: acme.apiKey, body: { send: 'sms' } });
    assert.deepEqual([link.status, link.body.error?.code], [409, 'phone_required']);

    const early = await t.request('POST', '/v1/payouts/instant', {
      auth: acme.apiKey,
      body: { worker_id: worker.id, amount: 5000, currency: 'USD', reference: 'gig_0' },
    });
    assert.deepEqual([early.status, early.body.error?.code], [409, 'worker_kyc_incomplete']);
    assert.equal(
      await t.database
        .db('hi_payouts')
        .where({ organization_id: acme.organizationId })
        .count('* as n')
        .first()
        .then((r) => Number(r?.n)),
      0,
    );
  });

  it('signed account.updated webhooks become the KYC state (requirements due, then completed); forged and stale ones change nothing', async () => {
    const due = await webhook(
      acme.organizationId,
      'account.updated',
      account(worker.account_id, { payouts_enabled: false, currently_due: ['individual.id_number'] }),
    );
    assert.deepEqual([due.status, due.body], [200, { received: true, type: 'account', matched: true }]);
    const read = await t.request('GET', `/v1/payouts/workers/${worker.id}`, { auth: acme.apiKey });
    assert.deepEqual([read.body.kyc_status, read.body.requirements_due], ['requirements_due', ['individual.id_number']]);
    await waitFor(async () => eventsOf(t, acme.organizationId, 'worker.kyc_requirements_due').length === 1, 'worker.kyc_requirements_due');

    const enabled = account(worker.account_id, { payouts_enabled: true, currently_due: [] });
    const forged = await webhook(acme.organizationId, 'account.updated', enabled, { secret: 'whsec_notthesecretofthisendpoint' });
    assert.deepEqual([forged.status, forged.body.error?.code], [400, 'webhook_signature_invalid']);
    const unsigned = await t.request('POST', `/v1/payouts/webhooks/${acme.organizationId}/${connectionId}`, { body: { id: 'evt_x', type: 'account.updated' } });
    assert.deepEqual([unsigned.status, unsigned.body.error?.code], [400, 'webhook_signature_invalid']);
    assert.equal((await t.request('GET', `/v1/payouts/workers/${worker.id}`, { auth: acme.apiKey })).body.kyc_status, 'requirements_due');

    const done = await webhook(acme.organizationId, 'account.updated', enabled);
    assert.equal(done.status, 200, done.text);
    const stale = await webhook(acme.organizationId, 'account.updated', account(worker.account_id, { payouts_enabled: false, currently_due: ['x'] }), {
      created: clock - 100,
    });
    assert.equal(stale.status, 200);
    const completed = await t.request('GET', `/v1/payouts/workers/${worker.id}`, { auth: acme.apiKey });
    assert.deepEqual([completed.body.kyc_status, completed.body.payouts_enabled, completed.body.requirements_due], ['completed', true, []]);
    await waitFor(async () => eventsOf(t, acme.organizationId, 'worker.kyc_completed').length === 1, 'worker.kyc_completed');
    const [event] = eventsOf(t, acme.organizationId, 'worker.kyc_completed');
    assert.deepEqual(event!.payload.worker_id, worker.id);
    const ignored = await webhook(acme.organizationId, 'customer.created', { id: 'cus_1', object: 'customer' });
    assert.deepEqual(ignored.body, { received: true, type: null, matched: false });
  });

  it('pays a worker: a transfer and an instant payout Stripe accepted, in integer cents, never twice for one reference; payout.paid settles it', async () => {
    const body = { worker_id: worker.id, amount: 12550, currency: 'usd', reference: 'shift_2291', fee_basis_points: 150 };
    const paid = await t.request('POST', '/v1/payouts/instant', { auth: acme.apiKey, body });
    assert.equal(paid.status, 201, paid.text);
    assert.deepEqual([paid.body.amount, paid.body.fee, paid.body.net, paid.body.currency, paid.body.status], [12550, 188, 12362, 'USD', 'in_transit']);
    const transfer = await run(paid.body.transfer_run_id);
    const instant = await run(paid.body.payout_run_id);
    assert.deepEqual([transfer.body.status, transfer.body.reference], ['succeeded', paid.body.transfer_id]);
    assert.deepEqual([instant.body.status, instant.body.reference, instant.body.action], ['succeeded', paid.body.provider_payout_id, 'payouts.instant_pay']);

    const retried = await t.request('POST', '/v1/payouts/instant', { auth: acme.apiKey, body });
    assert.equal(retried.body.id, paid.body.id, 'the same reference is the same payout');
    const runs = await t.database.db('hi_action_runs').where({ organization_id: acme.organizationId, action: 'payouts.instant_pay' }).count('* as n').first();
    assert.equal(Number(runs?.n), 2, 'one transfer run and one payout run: nothing moved twice');
    const changed = await t.request('POST', '/v1/payouts/instant', { auth: acme.apiKey, body: { ...body, amount: 12551 } });
    assert.deepEqual([changed.status, changed.body.error?.code], [409, 'payout_reference_conflict']);

    const settled = await webhook(
      acme.organizationId,
      'payout.paid',
      { id: paid.body.provider_payout_id, object: 'payout', status: 'paid', metadata: { payout_id: paid.body.id } },
      { account: worker.account_id },
    );
    assert.deepEqual(settled.body, { received: true, type: 'payout', matched: true });
    assert.equal((await t.request('GET', `/v1/payouts/instant/${paid.body.id}`, { auth: acme.apiKey })).body.status, 'paid');
    await waitFor(async () => eventsOf(t, acme.organizationId, 'payout.paid').length === 1, 'payout.paid');
    assert.deepEqual(eventsOf(t, acme.organizationId, 'payout.paid')[0]!.payload.net, 12362);
  });

  it('payout.failed fails the payout with payout_failed: a failed run, an event, and it stays failed', async () => {
    const paid = await t.request('POST', '/v1/payouts/instant', {
      auth: acme.apiKey,
      body: { worker_id: worker.id, amount: 4000, currency: 'USD', reference: 'shift_2292' },
    });
    assert.equal(paid.status, 201, paid.text);
    const failure = {
      id: paid.body.provider_payout_id,
      object: 'payout',
      status: 'failed',
      failure_code: 'account_closed',
      metadata: { payout_id: paid.body.id },
    };
    await webhook(acme.organizationId, 'payout.failed', failure, { account: worker.account_id });
    const failed = await t.request('GET', `/v1/payouts/instant/${paid.body.id}`, { auth: acme.apiKey });
    assert.deepEqual([failed.body.status, failed.body.failure_code], ['failed', 'payout_failed']);
    assert.match(failed.body.failure_message, /account_closed/);
    const settlement = await t.database
      .db('hi_action_runs')
      .where({ organization_id: acme.organizationId, idempotency_key: `payout-settled-${paid.body.id}` })
      .first();
    assert.deepEqual([settlement.status, settlement.error_code], ['failed', 'payout_failed']);
    await waitFor(async () => eventsOf(t, acme.organizationId, 'payout.failed').length === 1, 'payout.failed');
    assert.equal(eventsOf(t, acme.organizationId, 'payout.failed')[0]!.payload.provider_failure_code, 'account_closed');
    await webhook(acme.organizationId, 'payout.paid', { ...failure, status: 'paid' }, { account: worker.account_id });
    assert.equal((await t.request('GET', `/v1/payouts/instant/${paid.body.id}`, { auth: acme.apiKey })).body.status, 'failed', 'a failed payout stays failed');
  });

  it('a timesheet approved by the client pays its worker once (timesheet:<id>); a worker who cannot be paid is a failed run and timesheet.payout_failed', async () => {
    await activateLicense(t, acme.apiKey, 'payroll.time_tracking');
    const links = new SignedLinks(deriveKey(t.config.secretKey, 'message-links'));
    /** A week for the worker, submitted (the email goes through the sandbox) and approved through its signed link. */
    const approvedWeek = async (workerId: string) => {
      const placement = await t.request('POST', '/v1/timesheets/placements', {
        auth: acme.apiKey,
        body: {
          worker_id: workerId,
          worker_name: 'Ada Lovelace',
          client_company_id: 'cli_77',
          client_name: 'Harbor Logistics',
          client_contact: { name: 'Sam Lee', email: 'sam@harbor.example' },
          bill_rate: 4500,
          pay_rate: 2850,
          currency: 'USD',
          timezone: 'America/Los_Angeles',
        },
      });
      assert.equal(placement.status, 201, placement.text);
      const sheet = await t.request('POST', '/v1/timesheets', {
        auth: acme.apiKey,
        body: {
          placement_id: placement.body.id,
          period_start: '2026-11-16',
          entries: [{ start: '2026-11-16T08:00:00-08:00', end: '2026-11-16T17:00:00-08:00', break_minutes: 30 }],
        },
      });
      assert.equal(sheet.status, 201, sheet.text);
      const submitted = await t.request('POST', `/v1/timesheets/${sheet.body.id}/submit`, { auth: acme.apiKey });
      assert.equal(submitted.status, 200, submitted.text);
      const token = links.sign({ p: 'timesheet_review', o: acme.organizationId, r: `${sheet.body.id}:1`, x: Math.floor(Date.now() / 1000) + 3600 });
      const decided = await t.request('POST', `/v1/timesheet_review?token=${token}`, {
        rawBody: new URLSearchParams({ decision: 'approve' }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(decided.status, 200, decided.text);
      return sheet.body.id as string;
    };

    const timesheetId = await approvedWeek('cand_1001');
    const payout = await waitFor(
      async () =>
        (await t.database
          .db('hi_payouts')
          .where({ organization_id: acme.organizationId, reference: `timesheet:${timesheetId}` })
          .first()) ?? undefined,
      'the timesheet payout',
    );
    // 8.5 h at 28.50: 242.25, the timesheet's pay to the cent, no fee.
    assert.deepEqual([Number(payout.amount), Number(payout.fee), payout.source, payout.worker_id], [24225, 0, 'timesheet', worker.id]);
    const settled = await waitFor(async () => {
      const p = (await t.request('GET', `/v1/payouts/instant/${payout.id}`, { auth: acme.apiKey })).body;
      return p.status === 'in_transit' || p.status === 'paid' ? p : undefined;
    }, 'the transfer and the instant payout');
    assert.equal((await run(settled.payout_run_id)).body.status, 'succeeded');

    const unpaid = await approvedWeek('cand_unknown');
    await waitFor(async () => eventsOf(t, acme.organizationId, 'timesheet.payout_failed').length === 1, 'timesheet.payout_failed');
    const [failedEvent] = eventsOf(t, acme.organizationId, 'timesheet.payout_failed');
    assert.deepEqual([failedEvent!.payload.timesheet_id, failedEvent!.payload.failure_code, failedEvent!.payload.amount], [unpaid, 'worker_not_found', 24225]);
    const failedRun = await t.database
      .db('hi_action_runs')
      .where({ organization_id: acme.organizationId, idempotency_key: `timesheet-payout-${unpaid}` })
      .first();
    assert.deepEqual([failedRun.status, failedRun.error_code, failedRun.action], ['failed', 'worker_not_found', 'payouts.instant_pay']);
    assert.equal(
      (await t.database.db('hi_payouts').where({ organization_id: acme.organizationId, source: 'timesheet' })).length,
      1,
      'one payout per approved timesheet, none for the worker who cannot be paid',
    );
  });

  it('an approved timesheet whose payout job never reached the queue is found by the reconciliation sweep and paid exactly once', async () => {
    const placement = await t.request('POST', '/v1/timesheets/placements', {
      auth: acme.apiKey,
      body: {
        worker_id: 'cand_1001',
        worker_name: 'Ada Lovelace',
        client_company_id: 'cli_78',
        client_name: 'Pier Freight',
        client_contact: { name: 'Kim Park', email: 'kim@pier.example' },
        bill_rate: 4000,
        pay_rate: 2000,
        currency: 'USD',
        timezone: 'UTC',
      },
    });
    assert.equal(placement.status, 201, placement.text);
    const sheet = await t.request('POST', '/v1/timesheets', {
      auth: acme.apiKey,
      body: { placement_id: placement.body.id, period_start: '2026-11-16', entries: [{ start: '2026-11-17T09:00:00Z', end: '2026-11-17T13:00:00Z' }] },
    });
    assert.equal(sheet.status, 201, sheet.text);
    assert.equal((await t.request('POST', `/v1/timesheets/${sheet.body.id}/submit`, { auth: acme.apiKey })).status, 200);
    // The approval commits and the process dies before its payout job is added: no listener, no job.
    await t.database.db('hi_timesheets').where({ id: sheet.body.id }).update({ status: 'approved', decided_at: new Date() });
    const reference = `timesheet:${sheet.body.id}`;
    const payout = await waitFor(
      async () => (await t.database.db('hi_payouts').where({ organization_id: acme.organizationId, reference }).first()) ?? undefined,
      'the swept timesheet payout',
    );
    assert.deepEqual([Number(payout.amount), payout.source, payout.worker_id], [8000, 'timesheet', worker.id], '4 h at 20.00');
    await waitFor(async () => {
      const p = (await t.request('GET', `/v1/payouts/instant/${payout.id}`, { auth: acme.apiKey })).body;
      return p.status === 'in_transit' || p.status === 'paid' ? p : undefined;
    }, 'the transfer and the instant payout');
    // Several more sweeps (1 s apart) pay nothing again and fail nothing again.
    const failuresBefore = eventsOf(t, acme.organizationId, 'timesheet.payout_failed').length;
    await new Promise((resolve) => setTimeout(resolve, 3500));
    assert.equal((await t.database.db('hi_payouts').where({ organization_id: acme.organizationId, reference })).length, 1, 'paid exactly once');
    const moves = await t.database
      .db('hi_action_runs')
      .where({ organization_id: acme.organizationId, action: 'payouts.instant_pay' })
      .whereIn('idempotency_key', [`payout-transfer-${payout.id}`, `payout-instant-${payout.id}`]);
    assert.deepEqual(
      moves.map((r: { status: string }) => r.status),
      ['succeeded', 'succeeded'],
      'one transfer run and one payout run',
    );
    assert.equal(eventsOf(t, acme.organizationId, 'timesheet.payout_failed').length, failuresBefore, 'a recorded failure is not retried by the sweep');
  });

  it('a hire (candidate.hired) gets a connected account and the KYC link by email, once; without a country it is refused', async () => {
    const fire = (payload: object) =>
      t.request('POST', '/host/v1/hooks/candidate.hired', { auth: t.operatorKey, body: { organization_id: acme.organizationId, payload } });
    const outcome = (body: { outcomes: { handler: string; result?: any; reason?: string }[] }) =>
      body.outcomes.find((o) => o.handler === 'payouts-kyc-onboarding')!;
    const hire = { candidate_id: 'cand_2002', candidate: { name: 'Grace Hopper', email: 'grace@example.com' }, country: 'US' };
    const fired = await fire(hire);
    assert.equal(fired.status, 200, fired.text);
    const first = outcome(fired.body).result;
    assert.ok(first, fired.text);
    assert.equal(first.link_sent, true);
    assert.equal(typeof first.account_id, 'string', 'Prism answers an example account id');
    const onboarding = await run(first.onboarding_run_id);
    assert.deepEqual([onboarding.body.status, onboarding.body.action, onboarding.body.reference], ['succeeded', 'payouts.kyc_verification', first.account_id]);
    const message = await run(first.message_run_id);
    assert.deepEqual([message.body.status, message.body.action], ['succeeded', 'payouts.kyc_verification'], JSON.stringify(message.body));
    const worker = (await t.request('GET', `/v1/payouts/workers/${first.worker_id}`, { auth: acme.apiKey })).body;
    assert.deepEqual([worker.reference, worker.kyc_status], ['cand_2002', 'onboarding']);

    const again = outcome((await fire(hire)).body).result;
    assert.deepEqual([again.worker_id, again.account_id, again.link_sent, again.message_run_id], [first.worker_id, first.account_id, false, null]);
    const noCountry = outcome((await fire({ ...hire, candidate_id: 'cand_2003', country: undefined })).body);
    assert.match(noCountry.reason ?? '', /invalid_payload/, JSON.stringify(noCountry));
    assert.equal((await t.database.db('hi_payout_workers').where({ organization_id: acme.organizationId, reference: 'cand_2003' })).length, 0);
  });

  it('another organization sees none of it; no license, no connection: stable codes', async () => {
    assert.equal((await t.request('GET', `/v1/payouts/workers/${worker.id}`, { auth: globex.apiKey })).status, 404);
    const elsewhere = await webhook(globex.organizationId, 'account.updated', account(worker.account_id, { payouts_enabled: false, currently_due: [] }));
    assert.deepEqual([elsewhere.status, elsewhere.body.error?.code], [404, 'resource_missing']);
    const unlicensed = await t.request('POST', '/v1/payouts/workers', { auth: globex.apiKey, body: { reference: 'c', email: 'b@example.com', country: 'US' } });
    assert.deepEqual([unlicensed.status, unlicensed.body.error?.code], [403, 'license_required']);
    await activateLicense(t, globex.apiKey, 'payouts.kyc_verification');
    const missing = await t.request('POST', '/v1/payouts/workers', { auth: globex.apiKey, body: { reference: 'c', email: 'b@example.com', country: 'US' } });
    assert.deepEqual([missing.status, missing.body.error?.code], [409, 'connection_missing']);
    const runs = await t.request('GET', '/v1/integrations/runs?action=payouts.kyc_verification', { auth: globex.apiKey });
    assert.deepEqual(
      runs.body.data.map((r: { status: string; error: { code: string } | null }) => [r.status, r.error?.code]),
      [['failed', 'connection_missing']],
    );
    const listed = await t.request('GET', '/v1/payouts/workers', { auth: globex.apiKey });
    assert.deepEqual(
      listed.body.data.map((w: { kyc_status: string }) => w.kyc_status),
      ['pending'],
      'the worker exists, without an account',
    );
  });
});
