/**
 * Quotes and the upcoming invoice: what a change would be charged now (frozen as a quote the
 * change must pass), the check of that quote, and the next invoice if nothing changes.
 * Each first brings the account up to date (BillingService.tick), so it prices today's ledger.
 */
import { inject, injectable } from 'tsyringe';
import { CLOCK, type Clock } from '../../../kernel/clock';
import { conflict, invalid } from '../../../kernel/errors';
import { newId } from '../../../kernel/ids';
import { CATALOG_REPOSITORY, type CatalogRepository } from '../../licensing/domain/catalog';
import { BillingPreviewService } from './billing-preview-service';
import { changeLines, monthlyTotal, renew } from './billing-ledger';
import { BILLING_OPTIONS, type BillingOptions } from './billing-options';
import { BillingService } from './billing-service';
import type { Holdings } from './holdings';
import { lineTotal, type InvoiceLine } from './invoice-line';
import { BILLING_REPOSITORY, type BillingRepository } from './ports';
import { applyChange as proposeChange } from './proposed-change';
import { QUOTE_TTL_SECONDS, sameChange, type BillingChange, type Quote } from './quote';
import { basisOf } from './quote-basis';
import { Purchasability } from './purchasability';

export interface UpcomingInvoice {
  organizationId: string;
  currency: string;
  periodStart: Date | null;
  periodEnd: Date | null;
  lines: InvoiceLine[];
  subtotal: number;
  startingCredit: number;
  total: number;
  endingCredit: number;
}

@injectable()
export class BillingQuotes {
  constructor(
    @inject(BillingService) private readonly billing: BillingService,
    @inject(BILLING_REPOSITORY) private readonly repository: BillingRepository,
    @inject(CATALOG_REPOSITORY) private readonly catalog: CatalogRepository,
    @inject(BillingPreviewService) private readonly preview: BillingPreviewService,
    @inject(BILLING_OPTIONS) private readonly options: BillingOptions,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(Purchasability) private readonly purchasability: Purchasability,
  ) {}

  /** What the change would be charged now, frozen as a quote the change may pass. */
  async quote(organizationId: string, request: BillingChange): Promise<Quote> {
    await this.purchasability.require(request);
    await this.billing.tick(organizationId);
    const account = await this.billing.account(organizationId);
    const fee = (await this.catalog.platformFee()).amount;
    const after = await this.proposed(account.ledger.holdings, request);
    const at = this.billing.now(account);
    const lines = changeLines(account.ledger, after, at, fee);
    const quote: Quote = {
      id: newId('quote'),
      organizationId,
      change: request,
      at,
      lines,
      amount: lineTotal(lines),
      recurringAfter: monthlyTotal(after, fee),
      currency: this.options.currency,
      basis: basisOf(account.ledger),
      expiresAt: new Date(this.clock.now().getTime() + QUOTE_TTL_SECONDS * 1000),
    };
    await this.repository.saveQuote(quote);
    return quote;
  }

  /** The holdings after the change (a switch: unsubscribe, then subscribe). */
  private async proposed(holdings: Holdings, request: BillingChange): Promise<Holdings> {
    if (request.type !== 'switch') return proposeChange(holdings, await this.preview.resolve(request, request.type));
    if (request.fromSlug === request.toSlug) throw invalid('invalid_proposed_change', 'A switch needs two different packages', 'to');
    const without = proposeChange(holdings, await this.preview.resolve({ type: 'unsubscribe', packageSlug: request.fromSlug }, 'from'));
    return proposeChange(without, await this.preview.resolve({ type: 'subscribe', packageSlug: request.toSlug }, 'to'));
  }

  /** Whether the ledger holds the package now. */
  async holdsPackage(organizationId: string, packageSlug: string): Promise<boolean> {
    await this.billing.tick(organizationId);
    return (await this.billing.account(organizationId)).ledger.holdings.packages.some((p) => p.slug === packageSlug);
  }

  /** The quote a change passes, checked: the organization's, unexpired, for this change, and still current. */
  async requireQuote(organizationId: string, quoteId: string, change: BillingChange): Promise<Quote> {
    const quote = await this.repository.findQuote(quoteId, organizationId);
    if (!quote) throw invalid('quote_invalid', `No such quote: '${quoteId}'`, 'quote');
    if (quote.expiresAt.getTime() <= this.clock.now().getTime())
      throw conflict('quote_expired', `Quote ${quoteId} expired at ${quote.expiresAt.toISOString()}; ask for a new preview`);
    if (!sameChange(quote.change, change)) throw invalid('quote_mismatch', `Quote ${quoteId} is for another change (${quote.change.type})`, 'quote');
    const account = await this.billing.account(organizationId);
    if (basisOf(account.ledger) !== quote.basis) throw conflict('quote_stale', `Something changed since quote ${quoteId}; ask for a new preview`);
    return quote;
  }

  /** The next invoice if nothing changes before the period ends. */
  async upcoming(organizationId: string): Promise<UpcomingInvoice> {
    await this.billing.tick(organizationId);
    const account = await this.billing.account(organizationId);
    const fee = (await this.catalog.platformFee()).amount;
    const { invoice } = renew(account.ledger, fee);
    return {
      organizationId,
      currency: this.options.currency,
      periodStart: invoice?.periodStart ?? null,
      periodEnd: invoice?.periodEnd ?? null,
      lines: invoice?.lines ?? [],
      subtotal: invoice?.subtotal ?? 0,
      startingCredit: invoice?.startingCredit ?? account.ledger.creditBalance,
      total: invoice?.total ?? 0,
      endingCredit: invoice?.endingCredit ?? account.ledger.creditBalance,
    };
  }
}
