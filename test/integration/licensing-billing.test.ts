/**
 * GET /v1/integrations/billing/preview over HTTP: à la carte (platform fee + actions),
 * package only (no fee), mixed (an action covered by a package is never charged twice),
 * proposed changes of each kind, the cheapest covering package, and refusals.
 */
import { strict as assert } from 'node:assert';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { settledLicense, settledSubscription } from '../helpers/licensing';

describe('licensing: billing preview', function () {
  this.timeout(60_000);
  let t: TestHost;
  const preview = (apiKey: string, query = '') => t.request('GET', `/v1/integrations/billing/preview${query}`, { auth: apiKey });
  const activate = async (apiKey: string, key: string) =>
    settledLicense(t, apiKey, (await t.request('POST', `/v1/integrations/licenses/${key}/activate`, { auth: apiKey })).body.id);
  const subscribe = async (apiKey: string, slug: string) =>
    settledSubscription(t, apiKey, (await t.request('POST', `/v1/integrations/packages/${slug}/subscribe`, { auth: apiKey })).body.id);
  const amounts = (bill: { lines: { type: string; action_key?: string; package?: string; amount: number }[] }) =>
    bill.lines.map((l) => `${l.type}:${l.action_key ?? l.package ?? ''}=${l.amount}`);

  before(async () => {
    t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
  });
  after(() => t?.close());

  it('an organization with nothing pays nothing; the preview of its first action adds the platform fee', async () => {
    const { apiKey } = await t.createOrganization('Empty');
    const empty = (await preview(apiKey)).body;
    assert.equal(empty.object, 'billing_preview');
    assert.equal(empty.currency, 'USD');
    assert.deepEqual(empty.current, { lines: [], total: 0, currency: 'USD' });
    assert.equal(empty.after, null);
    assert.equal(empty.suggestion, null);
    const first = (await preview(apiKey, '?activate=esign.send_offer')).body;
    assert.deepEqual(first.proposed_change, { type: 'activate', action_key: 'esign.send_offer' });
    assert.deepEqual(amounts(first.after), ['platform_fee:=4900', 'action:esign.send_offer=1900']);
    assert.equal(first.after.total, 6800);
    assert.equal(first.difference, 6800);
  });

  it('à la carte: the platform fee once plus each action, and the package that would cover them for less', async () => {
    const { apiKey } = await t.createOrganization('School');
    await activate(apiKey, 'profile.accept_application');
    await activate(apiKey, 'background_checks.credentialing');
    const body = (await preview(apiKey)).body;
    assert.deepEqual(amounts(body.current), ['platform_fee:=4900', 'action:background_checks.credentialing=2900', 'action:profile.accept_application=2900']);
    assert.equal(body.current.total, 4900 + 2900 + 2900);
    assert.deepEqual(body.suggestion, {
      package: 'schools',
      name: 'Schools',
      price: { amount: 6900, currency: 'USD' },
      covers: ['background_checks.credentialing', 'profile.accept_application'],
      total_after: 6900,
      savings: 10700 - 6900,
    });

    const dropOne = (await preview(apiKey, '?deactivate=background_checks.credentialing')).body;
    assert.equal(dropOne.after.total, 4900 + 2900);
    assert.equal(dropOne.difference, -2900);
    assert.equal(dropOne.current.total, 10700, 'the current bill is unchanged by a preview');
  });

  it('package only: its one price and no platform fee; previewing unsubscribe drops it', async () => {
    const { apiKey } = await t.createOrganization('Studio');
    await subscribe(apiKey, 'entertainment');
    const body = (await preview(apiKey)).body;
    assert.deepEqual(amounts(body.current), ['package:entertainment=3900']);
    assert.equal(body.current.total, 3900);
    const cancel = (await preview(apiKey, '?unsubscribe=entertainment')).body;
    assert.equal(cancel.after.total, 0);
    assert.equal(cancel.difference, -3900);
  });

  it('mixed: an action held à la carte and through a package is charged once (by the package); others pay the fee', async () => {
    const { apiKey } = await t.createOrganization('Academy');
    await activate(apiKey, 'background_checks.credentialing');
    await subscribe(apiKey, 'schools');
    const covered = (await preview(apiKey)).body;
    assert.deepEqual(amounts(covered.current), ['package:schools=6900', 'action:background_checks.credentialing=0']);
    assert.equal(covered.current.lines[1].covered_by, 'schools');
    assert.equal(covered.current.total, 6900, 'no platform fee when every à la carte action is covered');

    await activate(apiKey, 'esign.send_offer');
    const mixed = (await preview(apiKey)).body;
    assert.deepEqual(amounts(mixed.current), [
      'package:schools=6900',
      'platform_fee:=4900',
      'action:background_checks.credentialing=0',
      'action:esign.send_offer=1900',
    ]);
    assert.equal(mixed.current.total, 6900 + 4900 + 1900);

    // Subscribing to a second package adds its price only.
    const second = (await preview(apiKey, '?subscribe=entertainment')).body;
    assert.equal(second.after.total, 6900 + 3900 + 4900 + 1900);
    assert.deepEqual(second.proposed_change, { type: 'subscribe', package: 'entertainment' });
    // Activating an action a package covers costs nothing more.
    const accept = (await preview(apiKey, '?activate=profile.accept_application')).body;
    assert.equal(accept.difference, 0);
  });

  it('a failed or deactivated license is not billed', async () => {
    const { apiKey } = await t.createOrganization('Gone');
    await activate(apiKey, 'sms.two_factor_auth');
    await t.request('POST', '/v1/integrations/licenses/sms.two_factor_auth/deactivate', { auth: apiKey });
    assert.equal((await preview(apiKey)).body.current.total, 0);
  });

  it('refuses bad proposals: malformed key 400, unknown 404, archived package 409, two changes 400, not held 400', async () => {
    const { apiKey } = await t.createOrganization('Picky');
    const malformed = await preview(apiKey, '?activate=NOT-A-KEY');
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.error.code, 'invalid_action_key');
    assert.equal(malformed.body.error.param, 'activate');
    assert.equal((await preview(apiKey, '?activate=sms.nope')).status, 404);
    assert.equal((await preview(apiKey, '?subscribe=space-agencies')).status, 404);
    const two = await preview(apiKey, '?activate=sms.two_factor_auth&subscribe=schools');
    assert.equal(two.status, 400);
    assert.equal(two.body.error.code, 'too_many_changes');
    assert.equal((await preview(apiKey, '?deactivate=sms.two_factor_auth')).body.error.code, 'invalid_proposed_change');
    assert.equal((await preview(apiKey, '?unsubscribe=schools')).body.error.code, 'invalid_proposed_change');
    assert.equal((await preview(apiKey, '?bogus=1')).body.error.code, 'parameter_unknown');
    await t.request('POST', '/v1/integrations/packages', {
      auth: t.operatorKey,
      body: { slug: 'old-deal', name: 'Old', price: { amount: 100, currency: 'USD' }, actions: ['sms.two_factor_auth'] },
    });
    await t.request('POST', '/v1/integrations/packages/old-deal/archive', { auth: t.operatorKey });
    const archived = await preview(apiKey, '?subscribe=old-deal');
    assert.equal(archived.status, 409);
    assert.equal(archived.body.error.code, 'package_archived');
  });
});
