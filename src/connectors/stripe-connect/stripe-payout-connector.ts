/** The payouts port over Stripe Connect: one Express account per worker, and a hosted onboarding (KYC) link. */
import type Stripe from 'stripe';
import type { PayoutConnector, PayoutOnboarding, PayoutWorker } from '../../features/hooks/domain/connectors';
import type { StripeConnectCredentials, StripeConnectSettings } from './settings';
import { stripeClient, stripeFailure } from './stripe-client';

export class StripePayoutConnector implements PayoutConnector {
  private readonly stripe: Stripe;
  private readonly livemode: boolean;

  constructor(
    private readonly settings: StripeConnectSettings,
    credentials: StripeConnectCredentials,
  ) {
    this.stripe = stripeClient(settings, credentials);
    this.livemode = /^(sk|rk)_live_/.test(credentials.secret_key);
  }

  async startOnboarding(worker: PayoutWorker): Promise<PayoutOnboarding> {
    let account: Stripe.Account;
    try {
      // Idempotency-Key = our worker id: a retried run gets the same account back, never a second one
      // (Stripe keeps keys 24 h; the account id is stored by the caller for later runs).
      account = await this.stripe.accounts.create(
        {
          type: 'express',
          country: worker.country,
          email: worker.email,
          capabilities: { transfers: { requested: true } },
          metadata: { worker_id: worker.workerId, organization_id: worker.organizationId },
        },
        { idempotencyKey: `account-${worker.organizationId}-${worker.workerId}` },
      );
    } catch (error) {
      throw stripeFailure(error, 'the connected account');
    }
    let link: Stripe.AccountLink;
    try {
      link = await this.stripe.accountLinks.create({
        account: account.id,
        type: 'account_onboarding',
        refresh_url: this.settings.onboarding_refresh_url,
        return_url: this.settings.onboarding_return_url,
      });
    } catch (error) {
      throw stripeFailure(error, 'the onboarding link');
    }
    return {
      deliveryId: worker.idempotencyKey,
      reference: account.id,
      accountId: account.id,
      onboardingUrl: link.url,
      expiresAt: new Date(link.expires_at * 1000),
      // An Account object carries no livemode; the key says which mode answered.
      livemode: this.livemode,
    };
  }
}
