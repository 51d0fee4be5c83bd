/**
 * Buying and dropping, with billing in the loop: refuses purchases of a suspended
 * organization (402 `payment_required`), honours a quote (the change is prorated from the
 * quote's instant, so it is charged exactly what the preview showed), and records every
 * change in the ledger right after it commits.
 */
import { inject, injectable } from 'tsyringe';
import { LicenseService, type Activation } from '../../licensing/domain/license-service';
import type { License } from '../../licensing/domain/license';
import { SubscriptionService } from '../../licensing/domain/subscription-service';
import { BillingQuotes } from './billing-quotes';
import { BillingService } from './billing-service';
import { Purchasability } from './purchasability';
import { PAYMENT_STANDING, paymentRequired, type PaymentStanding } from './payment-standing';
import type { BillingChange } from './quote';
import { invalid, notFound } from '../../../kernel/errors';

type Subscribed = Awaited<ReturnType<SubscriptionService['subscribe']>>;
type Unsubscribed = Awaited<ReturnType<SubscriptionService['unsubscribe']>>;

@injectable()
export class BillingCheckout {
  constructor(
    @inject(LicenseService) private readonly licenses: LicenseService,
    @inject(SubscriptionService) private readonly subscriptions: SubscriptionService,
    @inject(BillingService) private readonly billing: BillingService,
    @inject(BillingQuotes) private readonly quotes: BillingQuotes,
    @inject(PAYMENT_STANDING) private readonly standing: PaymentStanding,
    @inject(Purchasability) private readonly purchasability: Purchasability,
  ) {}

  async activate(organizationId: string, actionKey: string, quoteId?: string): Promise<Activation> {
    const quote = await this.admit(organizationId, { type: 'activate', actionKey }, quoteId);
    return this.billing.duringPurchase(organizationId, async () => {
      const activation = await this.licenses.activate(organizationId, actionKey);
      await this.billing.recordPurchase(organizationId, quote);
      return activation;
    });
  }

  async subscribe(organizationId: string, packageSlug: string, quoteId?: string): Promise<Subscribed> {
    const quote = await this.admit(organizationId, { type: 'subscribe', packageSlug }, quoteId);
    return this.billing.duringPurchase(organizationId, async () => {
      const result = await this.subscriptions.subscribe(organizationId, packageSlug);
      await this.billing.recordPurchase(organizationId, quote);
      return result;
    });
  }

  async deactivate(organizationId: string, actionKey: string, quoteId?: string): Promise<License> {
    const quote = quoteId ? await this.quotes.requireQuote(organizationId, quoteId, { type: 'deactivate', actionKey }) : undefined;
    return this.billing.duringPurchase(organizationId, async () => {
      const license = await this.licenses.deactivate(organizationId, actionKey);
      await this.billing.recordPurchase(organizationId, quote);
      return license;
    });
  }

  async unsubscribe(organizationId: string, packageSlug: string, quoteId?: string): Promise<Unsubscribed> {
    const quote = quoteId ? await this.quotes.requireQuote(organizationId, quoteId, { type: 'unsubscribe', packageSlug }) : undefined;
    return this.billing.duringPurchase(organizationId, async () => {
      const result = await this.subscriptions.unsubscribe(organizationId, packageSlug);
      await this.billing.recordPurchase(organizationId, quote);
      return result;
    });
  }

  /**
   * From one package to another in one step: the new subscription starts, the old one is
   * canceled, and billing records both at one instant (the quote's, when given).
   */
  async switchPackage(organizationId: string, fromSlug: string, toSlug: string, quoteId?: string): Promise<{ from: Unsubscribed; to: Subscribed }> {
    if (fromSlug === toSlug) throw invalid('invalid_proposed_change', 'A switch needs two different packages', 'to');
    const quote = await this.admit(organizationId, { type: 'switch', fromSlug, toSlug }, quoteId);
    if (!(await this.quotes.holdsPackage(organizationId, fromSlug))) throw notFound('subscription to package', fromSlug);
    return this.billing.duringPurchase(organizationId, async () => {
      const to = await this.subscriptions.subscribe(organizationId, toSlug);
      const from = await this.subscriptions.unsubscribe(organizationId, fromSlug);
      await this.billing.recordPurchase(organizationId, quote);
      return { from, to };
    });
  }

  private async admit(organizationId: string, change: BillingChange, quoteId: string | undefined) {
    if (await this.standing.isSuspended(organizationId)) throw paymentRequired();
    await this.purchasability.require(change);
    return quoteId ? this.quotes.requireQuote(organizationId, quoteId, change) : undefined;
  }
}
