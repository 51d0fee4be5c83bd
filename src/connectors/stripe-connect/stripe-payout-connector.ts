/**
 * The payouts port over Stripe Connect: one Express account per worker, a hosted onboarding
 * (KYC) link, transfers from the platform to the worker's account, instant payouts on the
 * worker's account (`Stripe-Account`), and the Connect webhooks verified with the signing secret.
 */
import type { ConnectorNetwork } from '../../features/connections/domain/connection-destinations';
import type Stripe from 'stripe';
import { DomainError } from '../../kernel/errors';
import type { PayoutConnector, PayoutMoney, PayoutMovement, PayoutOnboarding, PayoutProviderEvent, PayoutWorker } from '../../features/hooks/domain/connectors';
import { verifyConnectEvent } from './account-webhook';
import type { StripeConnectCredentials, StripeConnectSettings } from './settings';
import { stripeClient, stripeFailure } from './stripe-client';

export class StripePayoutConnector implements PayoutConnector {
  private readonly stripe: Stripe;
  private readonly livemode: boolean;
  private readonly webhookSecret: string | undefined;

  constructor(
    private readonly settings: StripeConnectSettings,
    credentials: StripeConnectCredentials,
    network?: ConnectorNetwork,
  ) {
    this.stripe = stripeClient(settings, credentials, network);
    this.livemode = /^(sk|rk)_live_/.test(credentials.secret_key);
    this.webhookSecret = credentials.webhook_secret;
  }

  async startOnboarding(worker: PayoutWorker): Promise<PayoutOnboarding> {
    let account: Pick<Stripe.Account, 'id'>;
    if (worker.accountId) account = { id: worker.accountId };
    else
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

  /** POST /v1/transfers (destination = the worker's account); the Idempotency-Key makes a retry the same transfer. */
  async transfer(money: PayoutMoney): Promise<PayoutMovement> {
    let transfer: Stripe.Transfer;
    try {
      transfer = await this.stripe.transfers.create(
        {
          amount: money.amount,
          currency: money.currency.toLowerCase(),
          destination: money.accountId,
          transfer_group: money.payoutId,
          metadata: { payout_id: money.payoutId, organization_id: money.organizationId },
        },
        { idempotencyKey: money.idempotencyKey },
      );
    } catch (error) {
      throw stripeFailure(error, 'the transfer');
    }
    if (typeof transfer?.id !== 'string') throw invalidAnswer('the transfer');
    return { deliveryId: money.idempotencyKey, reference: transfer.id, providerId: transfer.id, status: 'paid', livemode: transfer.livemode ?? this.livemode };
  }

  /** POST /v1/payouts with method=instant on the worker's account (Stripe-Account header). */
  async instantPayout(money: PayoutMoney): Promise<PayoutMovement> {
    let payout: Stripe.Payout;
    try {
      payout = await this.stripe.payouts.create(
        { amount: money.amount, currency: money.currency.toLowerCase(), method: 'instant', metadata: { payout_id: money.payoutId } },
        { idempotencyKey: money.idempotencyKey, stripeAccount: money.accountId },
      );
    } catch (error) {
      throw stripeFailure(error, 'the instant payout');
    }
    if (typeof payout?.id !== 'string') throw invalidAnswer('the instant payout');
    // Stripe says `failed` in the answer itself when the card refused at once.
    if (payout.status === 'failed' || payout.status === 'canceled')
      throw new DomainError(
        'conflict',
        'payout_failed',
        `Stripe answered the instant payout ${payout.status}${payout.failure_code ? ` (${payout.failure_code})` : ''}`,
        {
          stripe_code: payout.failure_code ?? payout.status,
        },
      );
    return { deliveryId: money.idempotencyKey, reference: payout.id, providerId: payout.id, status: payout.status, livemode: payout.livemode ?? this.livemode };
  }

  readWebhook(rawBody: Buffer, signature: string | undefined): PayoutProviderEvent | null {
    if (!this.webhookSecret)
      throw new DomainError(
        'conflict',
        'webhook_secret_missing',
        'The connection has no webhook_secret: add the signing secret of its Stripe webhook endpoint',
      );
    return verifyConnectEvent(rawBody, signature, this.webhookSecret);
  }
}

const invalidAnswer = (what: string) => new DomainError('conflict', 'counterpart_invalid_response', `Stripe answered ${what} without an id`);
