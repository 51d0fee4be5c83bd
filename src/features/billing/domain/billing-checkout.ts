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
import type { BillingChange, Quote } from './quote';
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
    return this.purchase(organizationId, quote, () => this.licenses.activate(organizationId, actionKey));
  }

  async subscribe(organizationId: string, packageSlug: string, quoteId?: string): Promise<Subscribed> {
    const quote = await this.admit(organizationId, { type: 'subscribe', packageSlug }, quoteId);
    return this.purchase(organizationId, quote, () => this.subscriptions.subscribe(organizationId, packageSlug));
  }

  async deactivate(organizationId: string, actionKey: string, quoteId?: string): Promise<License> {
    const quote = await this.matchingQuote(organizationId, { type: 'deactivate', actionKey }, quoteId);
    return this.purchase(organizationId, quote, () => this.licenses.deactivate(organizationId, actionKey));
  }

  async unsubscribe(organizationId: string, packageSlug: string, quoteId?: string): Promise<Unsubscribed> {
    const quote = await this.matchingQuote(organizationId, { type: 'unsubscribe', packageSlug }, quoteId);
    return this.purchase(organizationId, quote, () => this.subscriptions.unsubscribe(organizationId, packageSlug));
  }

  /**
   * From one package to another in one step: the new subscription starts, the old one is
   * canceled, and billing records both at one instant (the quote's, when given).
   */
  async switchPackage(organizationId: string, fromSlug: string, toSlug: string, quoteId?: string): Promise<{ from: Unsubscribed; to: Subscribed }> {
    if (fromSlug === toSlug) throw invalid('invalid_proposed_change', 'A switch needs two different packages', 'to');
    const quote = await this.admit(organizationId, { type: 'switch', fromSlug, toSlug }, quoteId);
    if (!(await this.quotes.holdsPackage(organizationId, fromSlug))) throw notFound('subscription to package', fromSlug);
    return this.purchase(organizationId, quote, async () => {
      const to = await this.subscriptions.subscribe(organizationId, toSlug);
      const from = await this.subscriptions.unsubscribe(organizationId, fromSlug);
      return { from, to };
    });
  }

  /** Makes the change while billing holds the organization's purchase lock, then records it in the ledger. */
  private purchase<T>(organizationId: string, quote: Quote | undefined, change: () => Promise<T>): Promise<T> {
    return this.billing.duringPurchase(organizationId, async () => {
      const result = await change();
      await this.billing.recordPurchase(organizationId, quote);
      return result;
    });
  }

  /** The quote passed with a change, checked against it; none without a quote id. Drops need no good standing: a suspended organization may still cancel. */
  private async matchingQuote(organizationId: string, change: BillingChange, quoteId: string | undefined): Promise<Quote | undefined> {
    return quoteId ? this.quotes.requireQuote(organizationId, quoteId, change) : undefined;
  }

  /** A purchase: the organization in good standing, every action in it runnable by this build, the quote matching. */
  private async admit(organizationId: string, change: BillingChange, quoteId: string | undefined): Promise<Quote | undefined> {
    if (await this.standing.isSuspended(organizationId)) throw paymentRequired();
    await this.purchasability.require(change);
    return this.matchingQuote(organizationId, change, quoteId);
  }
}
