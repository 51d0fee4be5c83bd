/**
 * Package subscriptions on real services: the parent becomes active when every license
 * is, fails when one fails (deactivating the rest), cancels with its licenses while an
 * action also held à la carte stays held and provisioned; archived packages take no new
 * subscriptions but existing ones keep working. Every subscription transition is here.
 */
import { strict as assert } from 'node:assert';
import { KnexLicenseRepository } from '../../src/features/licensing/storage/license-repository';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { waitFor } from '../helpers/profile-flow';
import { eventsOf, faultsInjected, planFault, settledLicense, settledSubscription, subscriptionOf } from '../helpers/licensing';

const subscribe = (t: TestHost, slug: string, apiKey: string) => t.request('POST', `/v1/integrations/packages/${slug}/subscribe`, { auth: apiKey });
const unsubscribe = (t: TestHost, slug: string, apiKey: string) => t.request('POST', `/v1/integrations/packages/${slug}/unsubscribe`, { auth: apiKey });

const TWO_ACTION_PACKAGES = {
  clinic: ['background_checks.license_verification', 'background_checks.credentialing'],
  diner: ['background_checks.union_verification', 'background_checks.food_handler_verification'],
};

describe('licensing: package subscriptions', function () {
  this.timeout(60_000);
  let t: TestHost;
  let org: { organizationId: string; apiKey: string };
  let repo: KnexLicenseRepository;

  before(async () => {
    t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
    org = await t.createOrganization('Springfield Elementary');
    repo = new KnexLicenseRepository(t.database.db);
    // Two-action packages of actions this build runs without a connection (only runnable packages are sold).
    for (const [slug, actions] of Object.entries(TWO_ACTION_PACKAGES)) {
      const created = await t.request('POST', '/v1/integrations/packages', {
        auth: t.operatorKey,
        body: { slug, name: slug, price: { amount: 4900, currency: 'USD' }, actions },
      });
      assert.equal(created.status, 201, created.text);
    }
  });
  after(() => t?.close());

  it('subscribing provisions every action of the package; the subscription is active when all licenses are', async () => {
    const response = await subscribe(t, 'schools', org.apiKey);
    assert.equal(response.status, 202, response.text);
    const sub = response.body;
    assert.match(sub.id, /^sub_[0-9A-Za-z]{20}$/);
    assert.equal(sub.object, 'subscription');
    assert.equal(sub.package, 'schools');
    assert.equal(sub.status, 'provisioning');
    assert.deepEqual(sub.price, { amount: 6900, currency: 'USD' });
    assert.deepEqual(sub.licenses.map((l: { action_key: string }) => l.action_key).sort(), [
      'background_checks.credentialing',
      'hris.volunteer_management',
      'profile.accept_application',
    ]);
    for (const license of sub.licenses) {
      assert.equal(license.source, 'package');
      assert.equal(license.package, 'schools');
      assert.equal(license.subscription_id, sub.id);
    }
    const settled = await settledSubscription(t, org.apiKey, sub.id);
    assert.equal(settled.status, 'active');
    assert.ok(settled.licenses.every((l: { status: string }) => l.status === 'active'));
    assert.ok(Date.parse(settled.activated_at) >= Math.max(...settled.licenses.map((l: { activated_at: string }) => Date.parse(l.activated_at))));
    assert.equal(await repo.hasActive(org.organizationId, 'profile.accept_application'), true);
    assert.ok(eventsOf(t, org.organizationId, 'subscription.created').some((e) => e.payload.subscription_id === sub.id));
    assert.equal(eventsOf(t, org.organizationId, 'license.activated').filter((e) => e.payload.subscription_id === sub.id).length, 3);
  });

  it("a provisioning job run again after a crash between a license's transition and its follow-ups settles the subscription", async () => {
    const [sub] = (await t.request('GET', '/v1/integrations/subscriptions', { auth: org.apiKey })).body.data.filter(
      (s: { package: string }) => s.package === 'schools',
    );
    assert.equal(sub.status, 'active');
    // The state a worker leaves when it dies after the license's update, before settling the parent.
    await t.database.db('hi_subscriptions').where({ id: sub.id }).update({ status: 'provisioning', activated_at: null });
    const license = sub.licenses[0];
    const eventsBefore = eventsOf(t, org.organizationId, 'license.activated').filter((e) => e.payload.license_id === license.id).length;
    await t.database.db('hi_outbox').insert({
      queue: 'license-provisioning',
      name: 'provision',
      job_id: `provision-${license.id}-recovered`,
      data: JSON.stringify({ license_id: license.id, step: 'provision' }),
    });
    const settled = await settledSubscription(t, org.apiKey, sub.id);
    assert.equal(settled.status, 'active');
    assert.equal(
      eventsOf(t, org.organizationId, 'license.activated').filter((e) => e.payload.license_id === license.id).length,
      eventsBefore + 1,
      'the event is told again (at least once)',
    );
    assert.equal((await t.database.db('hi_sandbox_provisionings').where({ license_id: license.id })).length, 1, 'nothing is provisioned twice');
  });

  it('subscribing again answers the live subscription (200), and concurrent subscribes make one', async () => {
    const [current] = (await t.request('GET', '/v1/integrations/subscriptions', { auth: org.apiKey })).body.data;
    const again = await subscribe(t, 'schools', org.apiKey);
    assert.equal(again.status, 200);
    assert.equal(again.body.id, current.id);

    const other = await t.createOrganization('Other School');
    const responses = await Promise.all(Array.from({ length: 10 }, () => subscribe(t, 'entertainment', other.apiKey)));
    assert.equal(new Set(responses.map((r) => r.body.id)).size, 1, responses.map((r) => r.text).join('\n'));
    assert.equal((await t.database.db('hi_subscriptions').where({ organization_id: other.organizationId })).length, 1);
    assert.equal((await t.database.db('hi_licenses').where({ organization_id: other.organizationId })).length, 2);
  });

  it('unknown and malformed packages are 404', async () => {
    assert.equal((await subscribe(t, 'space-agencies', org.apiKey)).status, 404);
    assert.equal((await subscribe(t, 'Not_A_Slug', org.apiKey)).status, 404);
    assert.equal((await unsubscribe(t, 'space-agencies', org.apiKey)).status, 404);
    assert.equal((await unsubscribe(t, 'healthcare', org.apiKey)).status, 404, 'never subscribed');
  });

  it('one failing license fails the whole subscription with its reason and deactivates the others', async () => {
    await planFault(t, {
      organizationId: org.organizationId,
      actionKey: 'background_checks.credentialing',
      kind: 'permanent',
      times: 1,
      reason: 'state board API refused the account',
    });
    const sub = (await subscribe(t, 'clinic', org.apiKey)).body;
    const settled = await settledSubscription(t, org.apiKey, sub.id);
    assert.equal(settled.status, 'failed');
    assert.match(settled.failure_reason, /^background_checks\.credentialing: provisioning_rejected: .*state board/);
    assert.ok(Date.parse(settled.failed_at));
    const byKey = Object.fromEntries(settled.licenses.map((l: { action_key: string }) => [l.action_key, l]));
    assert.equal(byKey['background_checks.credentialing'].status, 'failed');
    // The sibling may have finished first (active → deactivated) or not (provisioning → deactivated).
    await waitFor(async () => {
      const now = await subscriptionOf(t, org.apiKey, sub.id);
      return now.licenses.find((l: { action_key: string }) => l.action_key === 'background_checks.license_verification').status === 'deactivated' || undefined;
    }, 'the sibling to be deactivated');
    assert.equal(await repo.hasActive(org.organizationId, 'background_checks.license_verification'), false);
    assert.ok(eventsOf(t, org.organizationId, 'license.failed').some((e) => e.payload.subscription_id === sub.id));

    // A failed subscription is not live: subscribing again starts a new one.
    const retry = await subscribe(t, 'clinic', org.apiKey);
    assert.equal(retry.status, 202);
    assert.notEqual(retry.body.id, sub.id);
    assert.equal((await settledSubscription(t, org.apiKey, retry.body.id)).status, 'active');
  });

  it('a failed subscription can be canceled (failed → canceled)', async () => {
    const other = await t.createOrganization('Clinic');
    await planFault(t, {
      organizationId: other.organizationId,
      actionKey: 'background_checks.license_verification',
      kind: 'permanent',
      times: 1,
      reason: 'no',
    });
    const sub = (await subscribe(t, 'clinic', other.apiKey)).body;
    assert.equal((await settledSubscription(t, other.apiKey, sub.id)).status, 'failed');
    const canceled = await unsubscribe(t, 'clinic', other.apiKey);
    assert.equal(canceled.status, 200, canceled.text);
    assert.equal(canceled.body.status, 'canceled');
    assert.equal((await unsubscribe(t, 'clinic', other.apiKey)).status, 404);
  });

  it('a subscription still provisioning can be canceled (provisioning → canceled)', async () => {
    const other = await t.createOrganization('Diner');
    await planFault(t, {
      organizationId: other.organizationId,
      actionKey: 'background_checks.food_handler_verification',
      kind: 'transient',
      times: null,
      reason: 'POS offline',
    });
    const sub = (await subscribe(t, 'diner', other.apiKey)).body;
    await waitFor(
      async () => (await faultsInjected(t, other.organizationId, 'background_checks.food_handler_verification')) >= 1 || undefined,
      'a first failed attempt',
    );
    const canceled = await unsubscribe(t, 'diner', other.apiKey);
    assert.equal(canceled.status, 200);
    assert.equal(canceled.body.status, 'canceled');
    assert.ok(
      canceled.body.licenses.every((l: { status: string }) => l.status === 'deactivated'),
      JSON.stringify(canceled.body.licenses),
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const later = await subscriptionOf(t, other.apiKey, sub.id);
    assert.equal(later.status, 'canceled', 'a late child result does not revive it');
    assert.ok(later.licenses.every((l: { status: string }) => l.status === 'deactivated'));
  });

  it('unsubscribing deactivates the package licenses, except that an action also held à la carte stays held and set up', async () => {
    const diner = await t.createOrganization("Luigi's");
    const alaCarte = (await t.request('POST', '/v1/integrations/licenses/background_checks.food_handler_verification/activate', { auth: diner.apiKey })).body;
    await settledLicense(t, diner.apiKey, alaCarte.id);
    const sub = (await subscribe(t, 'diner', diner.apiKey)).body;
    await settledSubscription(t, diner.apiKey, sub.id);
    const packagePos = sub.licenses.find((l: { action_key: string }) => l.action_key === 'background_checks.food_handler_verification');

    const response = await unsubscribe(t, 'diner', diner.apiKey);
    assert.equal(response.status, 200);
    assert.equal(response.body.status, 'canceled');
    assert.ok(Date.parse(response.body.canceled_at));
    assert.ok(response.body.licenses.every((l: { status: string }) => l.status === 'deactivated'));

    assert.equal(await repo.hasActive(diner.organizationId, 'background_checks.food_handler_verification'), true, 'still held à la carte');
    assert.equal(await repo.hasActive(diner.organizationId, 'background_checks.union_verification'), false);
    const licenses = (await t.request('GET', '/v1/integrations/licenses?status=active', { auth: diner.apiKey })).body.data;
    assert.deepEqual(
      licenses.map((l: { id: string }) => l.id),
      [alaCarte.id],
    );

    // Torn down: the package-only actions; kept: the one still held à la carte.
    const shift = sub.licenses.find((l: { action_key: string }) => l.action_key === 'background_checks.union_verification');
    await waitFor(async () => (await t.database.db('hi_sandbox_provisionings').where({ license_id: shift.id }).first())?.deprovisioned_at, 'deprovisioning');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal((await t.database.db('hi_sandbox_provisionings').where({ license_id: packagePos.id }).first()).deprovisioned_at, null);
    assert.equal((await t.database.db('hi_sandbox_provisionings').where({ license_id: alaCarte.id }).first()).deprovisioned_at, null);

    const posEvent = eventsOf(t, diner.organizationId, 'license.deactivated').find((e) => e.payload.license_id === packagePos.id);
    assert.equal(posEvent?.payload.entitled, true);
    assert.ok(eventsOf(t, diner.organizationId, 'subscription.canceled').some((e) => e.payload.subscription_id === sub.id));
  });

  it('a package license cannot be deactivated on its own: 409 license_from_package', async () => {
    const response = await t.request('POST', '/v1/integrations/licenses/profile.accept_application/deactivate', { auth: org.apiKey });
    assert.equal(response.status, 409);
    assert.equal(response.body.error.code, 'license_from_package');
  });

  it('an archived package takes no new subscriptions (409 package_archived); existing ones keep working', async () => {
    const other = await t.createOrganization('Late School');
    const archived = await t.request('POST', '/v1/integrations/packages/schools/archive', { auth: t.operatorKey });
    assert.equal(archived.status, 200);
    assert.equal(archived.body.status, 'archived');
    const refused = await subscribe(t, 'schools', other.apiKey);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error.code, 'package_archived');
    assert.equal((await t.database.db('hi_subscriptions').where({ organization_id: other.organizationId })).length, 0);

    const existing = (await t.request('GET', '/v1/integrations/subscriptions', { auth: org.apiKey })).body.data.find(
      (s: { package: string }) => s.package === 'schools',
    );
    assert.equal(existing.status, 'active');
    assert.equal((await subscribe(t, 'schools', org.apiKey)).status, 200, 'the live subscription still answers');
    assert.equal(await repo.hasActive(org.organizationId, 'profile.accept_application'), true);
    const canceled = await unsubscribe(t, 'schools', org.apiKey);
    assert.equal(canceled.body.status, 'canceled', 'active → canceled');
  });
});
