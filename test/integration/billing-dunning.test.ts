/**
 * Dunning on the real services with a test clock: a declined card makes the organization
 * past_due (licenses still work during BILLING_GRACE_DAYS while the sandbox retries on
 * day 1, 3, 7 and 12), then suspended (gated hooks skip with `payment_required`, apply and
 * the public listing answer 402, nothing new can be bought); paying restores everything
 * at once, and another process's gate follows within 1 second (a separate process on
 * PostgreSQL + Redis, over the entitlement invalidation channel; a second activation in
 * this process in embedded mode).
 */
import { strict as assert } from 'node:assert';
import { usingPostgres } from '../helpers/database';
import { activateLicense } from '../helpers/hooks';
import { inProcessGateObserver, spawnGateObserver, waitForObservation, type GateObserver } from '../helpers/gate-observer';
import { eventsOf } from '../helpers/licensing';
import { ADA, enableProfileApply, QUESTIONS } from '../helpers/profile-flow';
import { usingRedis } from '../helpers/redis';
import { startTestHost, type TestHost } from '../helpers/test-host';

const ACTION = 'hris.employee_sync';
const HOOK = 'candidate.hired';
const PAYLOAD = { candidate_id: 'cand_x', candidate: { name: 'Ada Lovelace', email: 'ada@example.com' } };
const DECLINES = '4000000000000002';
const SUCCEEDS = '4242424242424242';

describe('billing: dunning suspends after the grace period, paying restores at once', function () {
  this.timeout(120_000);
  let t: TestHost;
  let observer: GateObserver | undefined;

  before(async () => {
    t = await startTestHost({ env: { BILLING_COLLECTION: 'sandbox', RATE_LIMIT_PER_MINUTE: '0' } });
  });
  after(async () => {
    await observer?.stop();
    await t?.close();
  });

  const advance = async (organizationId: string, to: string) => {
    const response = await t.request('POST', `/v1/billing/operator/organizations/${organizationId}/test_clock/advance`, { auth: t.operatorKey, body: { to } });
    assert.equal(response.status, 200, response.text);
    return response.body;
  };
  const fire = async (organizationId: string) => {
    const response = await t.request('POST', `/host/v1/hooks/${HOOK}`, { auth: t.operatorKey, body: { organization_id: organizationId, payload: PAYLOAD } });
    assert.equal(response.status, 200, response.text);
    return response.body.outcomes.find((o: { handler: string }) => o.handler === 'hris-employee-sync');
  };

  it('declined → past_due (still licensed) → suspended after grace (hooks skip, apply 402) → paid → restored', async () => {
    const org = await t.createOrganization('Dunning');
    const clock = await t.request('POST', `/v1/billing/operator/organizations/${org.organizationId}/test_clock`, {
      auth: t.operatorKey,
      body: { frozen_time: '2027-01-20T00:00:00Z' },
    });
    assert.equal(clock.status, 200, clock.text);
    assert.equal((await t.request('POST', '/v1/billing/payment_method', { auth: org.apiKey, body: { number: DECLINES } })).status, 200);
    await activateLicense(t, org.apiKey, ACTION);
    await enableProfileApply(t, org.apiKey, ['https://jobs.example.com']);
    const listing = await t.host.listings.create({ organizationId: org.organizationId, title: 'Engineer', questions: QUESTIONS });
    observer =
      usingRedis() && usingPostgres()
        ? await spawnGateObserver(t, org.organizationId, HOOK, PAYLOAD)
        : await inProcessGateObserver(t, org.organizationId, HOOK, PAYLOAD);
    await waitForObservation(observer, true, 0, 20_000);

    // February's invoice is declined: past_due, but licenses keep working.
    let account = await advance(org.organizationId, '2027-02-01T00:00:00Z');
    assert.equal(account.status, 'past_due');
    const [invoice] = (await t.request('GET', '/v1/billing/invoices', { auth: org.apiKey })).body.data;
    assert.equal(invoice.status, 'open');
    assert.equal(invoice.last_failure, 'card_declined');
    assert.equal(invoice.next_attempt_at, '2027-02-02T00:00:00.000Z');
    assert.equal((await fire(org.organizationId)).status, 'ran');
    assert.equal(eventsOf(t, org.organizationId, 'organization.past_due').length, 1);
    assert.equal(eventsOf(t, org.organizationId, 'invoice.payment_failed').length, 1);

    // Retries on day 1, 3, 7 and 12 fail too; the grace period (14 days) ends on Feb 15.
    account = await advance(org.organizationId, '2027-02-14T23:59:59Z');
    assert.equal(account.status, 'past_due');
    assert.equal(eventsOf(t, org.organizationId, 'invoice.payment_failed').length, 5);
    const retried = (await t.request('GET', `/v1/billing/invoices/${invoice.id}`, { auth: org.apiKey })).body;
    assert.equal(retried.attempt_count, 5);
    assert.equal(retried.next_attempt_at, null);

    account = await advance(org.organizationId, '2027-02-15T00:00:00Z');
    assert.equal(account.status, 'suspended');
    assert.equal(eventsOf(t, org.organizationId, 'organization.suspended').length, 1);
    const skipped = await fire(org.organizationId);
    assert.deepEqual([skipped.status, skipped.reason], ['skipped', 'payment_required']);
    const apply = await t.request('POST', `/v1/opportunities/listings/${listing.id}/applications/profile`, {
      auth: org.apiKey,
      body: { profile_user_id: ADA.id, answers: { years_experience: 3, work_authorization: true } },
    });
    assert.equal(apply.status, 402, apply.text);
    assert.equal(apply.body.error.code, 'payment_required');
    const publicListing = await t.request('GET', `/v1/public/organizations/${org.organizationId}/listings/${listing.id}`);
    assert.equal(publicListing.status, 402, publicListing.text);
    assert.equal(
      (await t.request('GET', `/v1/public/organizations/${org.organizationId}/listings/listing_nope`)).status,
      404,
      'an unknown listing is still 404',
    );
    const refused = await t.request('POST', '/v1/integrations/licenses/esign.send_offer/activate', { auth: org.apiKey });
    assert.equal(refused.status, 402, refused.text);
    assert.equal((await t.request('POST', '/v1/integrations/packages/schools/subscribe', { auth: org.apiKey })).status, 402);
    await waitForObservation(observer, false, 0);

    // A working card, then pay: restored at once, here and in the other process.
    assert.equal((await t.request('POST', '/v1/billing/payment_method', { auth: org.apiKey, body: { number: SUCCEEDS } })).status, 200);
    const paying = Date.now();
    const paid = await t.request('POST', `/v1/billing/invoices/${invoice.id}/pay`, { auth: org.apiKey });
    assert.equal(paid.status, 200, paid.text);
    assert.equal(paid.body.status, 'paid');
    const flip = await waitForObservation(observer, true, paying);
    assert.ok(flip.at - paying <= 1000, `the other process restored ${flip.at - paying} ms after the payment started`);
    assert.equal((await fire(org.organizationId)).status, 'ran');
    assert.equal((await t.request('GET', `/v1/public/organizations/${org.organizationId}/listings/${listing.id}`)).status, 200);
    assert.equal((await t.request('GET', '/v1/billing/account', { auth: org.apiKey })).body.status, 'active');
    assert.equal(eventsOf(t, org.organizationId, 'organization.restored').length, 1);
    assert.equal(eventsOf(t, org.organizationId, 'invoice.paid').length, 1);
  });

  it('host collection (the embedded default): invoices are finalized and announced, and wait for the host', async () => {
    const hosted = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
    try {
      const org = await hosted.createOrganization('Hosted');
      await hosted.request('POST', `/v1/billing/operator/organizations/${org.organizationId}/test_clock`, {
        auth: hosted.operatorKey,
        body: { frozen_time: '2027-04-10T00:00:00Z' },
      });
      await activateLicense(hosted, org.apiKey, ACTION);
      const card = await hosted.request('POST', '/v1/billing/payment_method', { auth: org.apiKey, body: { number: SUCCEEDS } });
      assert.equal(card.status, 409, 'payment methods live with the host');
      const advanced = await hosted.request('POST', `/v1/billing/operator/organizations/${org.organizationId}/test_clock/advance`, {
        auth: hosted.operatorKey,
        body: { to: '2027-05-20T00:00:00Z' },
      });
      assert.equal(advanced.body.status, 'active', 'nothing failed: the host has not reported yet');
      const [invoice] = (await hosted.request('GET', '/v1/billing/invoices', { auth: org.apiKey })).body.data;
      assert.deepEqual([invoice.status, invoice.attempt_count, invoice.number !== null], ['open', 0, true]);
      const finalized = eventsOf(hosted, org.organizationId, 'invoice.finalized');
      assert.deepEqual(
        finalized.map((e) => e.payload.invoice_id),
        [invoice.id],
      );
      await hosted.host.plugin.reportInvoicePayment!(invoice.id, { status: 'paid', reference: 'host-charge-1' });
      assert.equal((await hosted.request('GET', `/v1/billing/invoices/${invoice.id}`, { auth: org.apiKey })).body.status, 'paid');
      assert.equal(eventsOf(hosted, org.organizationId, 'invoice.paid')[0]?.payload.reference, 'host-charge-1');
    } finally {
      await hosted.close();
    }
  });

  it('the host reports outcomes: payment_failed makes past_due, mark_paid restores; void and uncollectible follow the state machine', async () => {
    const org = await t.createOrganization('Host reports');
    await t.request('POST', `/v1/billing/operator/organizations/${org.organizationId}/test_clock`, {
      auth: t.operatorKey,
      body: { frozen_time: '2027-05-03T00:00:00Z' },
    });
    await activateLicense(t, org.apiKey, ACTION);
    await advance(org.organizationId, '2027-06-01T00:00:00Z'); // no card: the sandbox fails with no_payment_method
    const [invoice] = (await t.request('GET', '/v1/billing/invoices', { auth: org.apiKey })).body.data;
    assert.equal(invoice.last_failure, 'no_payment_method');
    const op = (action: string, body?: object) =>
      t.request('POST', `/v1/billing/operator/invoices/${invoice.id}/${action}`, { auth: t.operatorKey, body: body ?? {} });
    assert.equal((await op('payment_failed', { reason: 'expired_card' })).body.last_failure, 'expired_card');
    // The host's own channel: a PluginInstance method.
    await t.host.plugin.reportInvoicePayment!(invoice.id, { status: 'failed', reason: 'insufficient_funds' });
    assert.equal((await t.request('GET', `/v1/billing/invoices/${invoice.id}`, { auth: org.apiKey })).body.last_failure, 'insufficient_funds');
    assert.equal((await op('mark_uncollectible')).body.status, 'uncollectible');
    assert.equal((await t.request('GET', '/v1/billing/account', { auth: org.apiKey })).body.status, 'past_due', 'written off is still owed');
    const paid = await op('mark_paid', { reference: 'wire-123' });
    assert.equal(paid.body.status, 'paid');
    assert.equal((await t.request('GET', '/v1/billing/account', { auth: org.apiKey })).body.status, 'active');
    const again = await op('void');
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'invalid_invoice_state');
    assert.equal(
      (await t.request('POST', `/v1/billing/operator/invoices/${invoice.id}/mark_paid`, { auth: org.apiKey, body: {} })).status,
      403,
      'operator only',
    );
  });
});
