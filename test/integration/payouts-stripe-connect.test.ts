/**
 * Payouts over Stripe Connect against Prism serving Stripe's published OpenAPI description
 * (test/fixtures/stripe, every request validated against Stripe's contract): the connection
 * test reads the platform account, onboarding creates an Express account and a hosted
 * onboarding link; Stripe's failures map to stable codes; `account.updated` webhooks signed
 * with the `stripe` package's own test helper verify, and a forged or replayed one does not.
 */
import { strict as assert } from 'node:assert';
import path from 'node:path';
import Stripe from 'stripe';
import { stripeConnectConnector } from '../../src/connectors/stripe-connect';
import { verifyAccountUpdated } from '../../src/connectors/stripe-connect/account-webhook';
import { stripeConnectCredentials, stripeConnectSettings } from '../../src/connectors/stripe-connect/settings';
import { stripeFailure } from '../../src/connectors/stripe-connect/stripe-client';
import { PACKAGE_ROOT } from '../../src/platform/manifest/manifest';
import { isDomainError } from '../../src/kernel/errors';
import { startPrism, type PrismServer } from '../helpers/prism';
import { freePort } from '../helpers/processes';

const SPEC = path.join(PACKAGE_ROOT, 'test/fixtures/stripe/connect.openapi.json');
const KEY = 'sk_test_4eC39HqLyjWDarjtT1zdp7dc';
const WHSEC = 'whsec_5f2a9c1e7b3d4a6f8e0c2b4d6f8a0c1e';

describe('payouts: worker onboarding (KYC) through Stripe Connect', function () {
  this.timeout(60_000);
  let prism: PrismServer;
  const settings = (base: string) =>
    stripeConnectSettings.parse({
      api_base_url: base,
      onboarding_refresh_url: 'https://jobs.example.com/payouts/expired',
      onboarding_return_url: 'https://jobs.example.com/payouts/done',
    });
  const credentials = stripeConnectCredentials.parse({ secret_key: KEY, webhook_secret: WHSEC });

  before(async () => {
    prism = await startPrism(SPEC);
  });
  after(async () => {
    await prism?.stop();
  });

  it('the connection test reads the platform account with the key', async () => {
    const outcome = await stripeConnectConnector.test(settings(prism.url), credentials);
    assert.equal(outcome.ok, true, JSON.stringify(outcome));
  });

  it('onboarding creates an Express account and a hosted onboarding link Stripe accepts', async () => {
    const port = stripeConnectConnector.open(settings(prism.url), credentials);
    const onboarding = await port.startOnboarding({
      organizationId: 'org_1',
      actionKey: 'payouts.kyc_verification',
      idempotencyKey: 'run_1',
      workerId: 'wrk_1',
      email: 'ada@example.com',
      country: 'GB',
    });
    assert.equal(typeof onboarding.accountId, 'string');
    assert.equal(onboarding.reference, onboarding.accountId);
    assert.equal(typeof onboarding.onboardingUrl, 'string');
    assert.ok(onboarding.expiresAt instanceof Date && !Number.isNaN(onboarding.expiresAt.getTime()));
    assert.equal(onboarding.livemode, false, 'a test key is test mode');
  });

  it('Stripe out of reach is a transient connection_unreachable, never a success', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const outcome = await stripeConnectConnector.test(settings(closed), credentials);
    assert.deepEqual(outcome.ok ? 'ok' : outcome.code, 'connection_unreachable');
    await assert.rejects(
      stripeConnectConnector.open(settings(closed), credentials).startOnboarding({
        organizationId: 'o',
        actionKey: 'payouts.kyc_verification',
        idempotencyKey: 'r',
        workerId: 'w',
        email: 'a@example.com',
        country: 'US',
      }),
      (e: unknown) => isDomainError(e) && e.code === 'connection_unreachable' && e.kind === 'upstream',
    );
  });

  it("maps Stripe's errors: card/invalid_request final, 429/5xx retried with Retry-After, a refused key final", () => {
    const raw = (type: string, statusCode: number, headers: Record<string, string> = {}) =>
      Stripe.errors.StripeError.generate({ type, message: 'm', code: 'c', statusCode, headers } as never);
    const card = stripeFailure(raw('card_error', 402), 'x');
    assert.deepEqual([card.kind, card.code], ['conflict', 'counterpart_rejected']);
    const request = stripeFailure(raw('invalid_request_error', 400), 'x');
    assert.deepEqual([request.kind, request.code], ['conflict', 'counterpart_rejected']);
    const limited = stripeFailure(raw('rate_limit_error', 429, { 'retry-after': '7' }), 'x');
    assert.deepEqual([limited.kind, limited.code, limited.details.retryAfterSeconds], ['upstream', 'counterpart_unavailable', 7]);
    const down = stripeFailure(raw('api_error', 503), 'x');
    assert.deepEqual([down.kind, down.code], ['upstream', 'counterpart_unavailable']);
    const key = stripeFailure(raw('authentication_error', 401), 'x');
    assert.deepEqual([key.kind, key.code], ['conflict', 'connection_auth_failed']);
    assert.ok(!stripeConnectCredentials.safeParse({ secret_key: 'pk_test_abc' }).success, 'a publishable key is refused');
    assert.ok(!stripeConnectSettings.safeParse({ ...settings(prism.url), api_base_url: 'http://api.example.com' }).success, 'no clear-text key');
  });

  describe('account.updated webhooks', () => {
    const stripe = new Stripe(KEY);
    const event = (object: object, type = 'account.updated') =>
      JSON.stringify({ id: 'evt_1', object: 'event', type, livemode: false, api_version: '2020-08-27', created: 1, data: { object } });
    const account = {
      id: 'acct_1',
      object: 'account',
      metadata: { worker_id: 'wrk_1' },
      payouts_enabled: false,
      requirements: { currently_due: ['individual.verification.document'], disabled_reason: 'requirements.past_due' },
    };

    it('a signed account.updated becomes the worker KYC state', () => {
      const payload = event(account);
      const header = stripe.webhooks.generateTestHeaderString({ payload, secret: WHSEC });
      assert.deepEqual(verifyAccountUpdated(payload, header, WHSEC), {
        eventId: 'evt_1',
        accountId: 'acct_1',
        workerId: 'wrk_1',
        payoutsEnabled: false,
        currentlyDue: ['individual.verification.document'],
        disabledReason: 'requirements.past_due',
        livemode: false,
        occurredAt: new Date(1000),
      });
      const enabled = event({ ...account, payouts_enabled: true, requirements: { currently_due: [], disabled_reason: null } });
      const state = verifyAccountUpdated(enabled, stripe.webhooks.generateTestHeaderString({ payload: enabled, secret: WHSEC }), WHSEC);
      assert.deepEqual([state?.payoutsEnabled, state?.currentlyDue], [true, []]);
      const other = event({ id: 'po_1' }, 'payout.paid');
      assert.equal(verifyAccountUpdated(other, stripe.webhooks.generateTestHeaderString({ payload: other, secret: WHSEC }), WHSEC), null);
    });

    it('a forged, tampered, unsigned or replayed webhook is refused with webhook_signature_invalid', () => {
      const payload = event(account);
      const refused = (body: string, header: string | undefined, now?: number) =>
        assert.throws(
          () => verifyAccountUpdated(body, header, WHSEC, now),
          (e: unknown) => isDomainError(e) && e.kind === 'invalid' && e.code === 'webhook_signature_invalid',
        );
      refused(payload, stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someoneelse' }));
      refused(payload.replace('"payouts_enabled":false', '"payouts_enabled":true'), stripe.webhooks.generateTestHeaderString({ payload, secret: WHSEC }));
      refused(payload, undefined);
      const old = Math.floor(Date.now() / 1000) - 3600;
      refused(payload, stripe.webhooks.generateTestHeaderString({ payload, secret: WHSEC, timestamp: old }));
    });
  });
});
