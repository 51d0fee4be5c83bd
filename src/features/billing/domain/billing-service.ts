/**
 * Billing of one organization at a time, under its account lock: keeping the ledger in
 * step with what it holds, renewing due periods into finalized invoices (exactly once per
 * organization and period), collecting them through the PaymentCollector, dunning, test
 * clocks, and the operator's corrections. Events and collection run after the commit.
 */
import { inject, injectable } from 'tsyringe';
import { CLOCK, type Clock } from '../../../kernel/clock';
import { conflict, invalid, notFound } from '../../../kernel/errors';
import { EVENT_PUBLISHER, type EventPublisher } from '../../../kernel/events';
import { newId } from '../../../kernel/ids';
import { LOGGER, type Logger } from '../../../kernel/logger';
import { CATALOG_REPOSITORY, type CatalogRepository } from '../../licensing/domain/catalog';
import type { Holdings } from './holdings';
import { BillingPreviewService } from './billing-preview-service';
import { applyChange as proposeChange } from './proposed-change';
import { newAccount, type BillingAccount } from './billing-account';
import { applyChange, changeLines, emptyLedger, monthlyTotal, renew, type LedgerState, type RenewalInvoice } from './billing-ledger';
import { BILLING_OPTIONS, type BillingOptions } from './billing-options';
import { billingRules } from './billing-rules';
import { graceEndsAt, nextRetryAt, shouldSuspend } from './dunning';
import { isUnpaid, requireTransition, type Invoice } from './invoice';
import { lineTotal, type InvoiceLine } from './invoice-line';
import { PAYMENT_COLLECTOR, type CollectionOutcome, type PaymentCollector } from './payment-collector';
import { BILLING_REPOSITORY, type AccountContext, type AccountStep, type BillingRepository } from './ports';
import { QUOTE_TTL_SECONDS, sameChange, type BillingChange, type Quote } from './quote';
import { STANDING_CHANGES, type StandingChanges } from './standing-changes';

interface Effects {
  events: { name: string; payload: object }[];
  /** Invoices claimed for a collection attempt (sandbox). */
  collect: Invoice[];
  standingChanged: boolean;
}

const noEffects = (): Effects => ({ events: [], collect: [], standingChanged: false });

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
export class BillingService {
  constructor(
    @inject(BILLING_REPOSITORY) private readonly repository: BillingRepository,
    @inject(CATALOG_REPOSITORY) private readonly catalog: CatalogRepository,
    @inject(BillingPreviewService) private readonly preview: BillingPreviewService,
    @inject(PAYMENT_COLLECTOR) private readonly collector: PaymentCollector,
    @inject(EVENT_PUBLISHER) private readonly publisher: EventPublisher,
    @inject(STANDING_CHANGES) private readonly standing: StandingChanges,
    @inject(BILLING_OPTIONS) private readonly options: BillingOptions,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Organizations with a purchase in progress in this process (BillingCheckout records it itself). */
  private readonly purchases = new Map<string, number>();

  /** Runs a purchase; license events it causes are left to it, so a quote's instant is kept. */
  async duringPurchase<T>(organizationId: string, purchase: () => Promise<T>): Promise<T> {
    this.purchases.set(organizationId, (this.purchases.get(organizationId) ?? 0) + 1);
    try {
      return await purchase();
    } finally {
      const left = this.purchases.get(organizationId)! - 1;
      if (left === 0) this.purchases.delete(organizationId);
      else this.purchases.set(organizationId, left);
    }
  }

  /**
   * Records a purchase that committed. A failure here is logged, not thrown: the purchase
   * stands, and the renewal job records it on its next run (it looks for live licenses
   * the ledger has not recorded).
   */
  async recordPurchase(organizationId: string, quote?: Quote): Promise<void> {
    try {
      await this.tick(organizationId, quote);
    } catch (error) {
      this.logger.error({ organizationId, err: (error as Error).message }, 'recording a purchase in the billing ledger failed; the renewal job will');
    }
  }

  /** A license changed outside a purchase (provisioning failed, a package's siblings ended): record it now. */
  async licenseChanged(organizationId: string): Promise<void> {
    if (!this.purchases.has(organizationId)) await this.tick(organizationId);
  }

  /** The billing rules of this installation (the catalog states them). */
  rules() {
    return billingRules(this.options.graceDays);
  }

  /** The account's clock: its test clock if it has one, else the system's. */
  now(account: BillingAccount): Date {
    return account.testClockAt ?? this.clock.now();
  }

  /**
   * Brings the account up to date: renews every period that ended (catching up after
   * downtime), records what changed in its holdings (at `quote.at` when a valid quote is
   * given, else now), retries due payments and suspends after the grace period.
   */
  async tick(organizationId: string, quote?: Quote): Promise<void> {
    // Read before the account lock: an embedded database has a single connection.
    const fee = (await this.catalog.platformFee()).amount;
    await this.step(organizationId, async (account, context, effects) => {
      const now = this.now(account);
      const created: Invoice[] = [];
      let ledger = account.ledger;
      while (ledger.period && now.getTime() >= ledger.period.end.getTime()) {
        const renewal = renew(ledger, fee);
        ledger = renewal.state;
        if (renewal.invoice) created.push(this.finalize(organizationId, renewal.invoice, ledger.period?.start ?? renewal.invoice.periodStart, effects));
      }
      const holdings = mergePrices(ledger.holdings, context.holdings);
      const at = quote && quote.basis === basisOf(ledger) ? quote.at : now;
      if (!sameHoldings(ledger.holdings, holdings)) ledger = applyChange(ledger, holdings, at, fee).state;
      let next: BillingAccount = { ...account, ledger };
      const updated: Invoice[] = [];
      for (const invoice of context.unpaid) {
        if (invoice.status === 'open' && invoice.nextAttemptAt && invoice.nextAttemptAt.getTime() <= now.getTime() && this.collector.automatic) {
          const claimed = { ...invoice, attemptCount: invoice.attemptCount + 1, nextAttemptAt: crashFallback(now) };
          updated.push(claimed);
          effects.collect.push(claimed);
        }
      }
      if (shouldSuspend(next, now, this.options.graceDays)) {
        next = { ...next, status: 'suspended' };
        effects.events.push({ name: 'organization.suspended', payload: { status: 'suspended', past_due_since: next.pastDueSince?.toISOString() } });
        effects.standingChanged = true;
      }
      return { account: next, created, updated, result: undefined };
    });
  }

  /** Status of a new invoice: zero totals are paid at once; automatic collection claims the first attempt. */
  private finalize(organizationId: string, draft: RenewalInvoice, at: Date, effects: Effects): Invoice {
    const paidNow = draft.total === 0;
    const invoice: Invoice = {
      id: newId('inv'),
      organizationId,
      number: null,
      status: paidNow ? 'paid' : 'open',
      currency: this.options.currency,
      periodStart: draft.periodStart,
      periodEnd: draft.periodEnd,
      lines: draft.lines,
      subtotal: draft.subtotal,
      startingCredit: draft.startingCredit,
      total: draft.total,
      endingCredit: draft.endingCredit,
      attemptCount: !paidNow && this.collector.automatic ? 1 : 0,
      lastFailure: null,
      nextAttemptAt: !paidNow && this.collector.automatic ? crashFallback(at) : null,
      createdAt: at,
      finalizedAt: at,
      paidAt: paidNow ? at : null,
      voidedAt: null,
      markedUncollectibleAt: null,
    };
    if (!paidNow && this.collector.automatic) effects.collect.push(invoice);
    return invoice;
  }

  /** Runs one locked step, then publishes its events, collects what it claimed and spreads a standing change. */
  private async step<T>(
    organizationId: string,
    work: (account: BillingAccount, context: AccountContext, effects: Effects) => Promise<Omit<AccountStep<T>, 'nextActionAt'>>,
  ): Promise<T> {
    const effects = noEffects();
    const { result, created } = await this.repository.transact(
      organizationId,
      () => newAccount(organizationId, emptyLedger()),
      async (account, context) => {
        const outcome = await work(account, context, effects);
        const unpaid = [...context.unpaid.map((i) => outcome.updated?.find((u) => u.id === i.id) ?? i), ...(outcome.created ?? [])].filter(isUnpaid);
        return { ...outcome, nextActionAt: this.nextActionAt(outcome.account, unpaid) };
      },
    );
    for (const invoice of created) {
      const payload = invoicePayload(invoice);
      await this.publish('invoice.created', organizationId, payload);
      await this.publish('invoice.finalized', organizationId, payload);
      if (invoice.status === 'paid') await this.publish('invoice.paid', organizationId, payload);
    }
    for (const event of effects.events) await this.publish(event.name, organizationId, event.payload);
    if (effects.standingChanged) await this.standing.changed(organizationId);
    const numbered = new Map(created.map((i) => [i.id, i]));
    for (const invoice of effects.collect) await this.attempt(numbered.get(invoice.id) ?? invoice);
    return result;
  }

  private nextActionAt(account: BillingAccount, unpaid: Invoice[]): Date | null {
    const times: number[] = [];
    if (account.ledger.period) times.push(account.ledger.period.end.getTime());
    for (const invoice of unpaid) if (invoice.nextAttemptAt) times.push(invoice.nextAttemptAt.getTime());
    if (account.status === 'past_due' && account.pastDueSince) times.push(graceEndsAt(account.pastDueSince, this.options.graceDays).getTime());
    return times.length ? new Date(Math.min(...times)) : null;
  }

  private async attempt(invoice: Invoice): Promise<void> {
    const account = await this.repository.findAccount(invoice.organizationId);
    let outcome: CollectionOutcome;
    try {
      outcome = await this.collector.collect({
        invoiceId: invoice.id,
        organizationId: invoice.organizationId,
        amount: invoice.total,
        currency: invoice.currency,
        attempt: invoice.attemptCount,
        paymentMethod: account?.paymentMethod?.number ?? null,
      });
    } catch (error) {
      outcome = { status: 'failed', reason: `collection_error: ${(error as Error).message}` };
    }
    await this.record(invoice.organizationId, invoice.id, outcome);
  }

  /** Records a collection outcome (ours, or the host's report). */
  async record(organizationId: string, invoiceId: string, outcome: CollectionOutcome): Promise<Invoice> {
    const known = await this.requireInvoice(invoiceId, organizationId);
    return this.step(organizationId, async (account, context, effects) => {
      const invoice = context.unpaid.find((i) => i.id === invoiceId);
      if (!invoice) return this.unchanged(account, known, outcome.status === 'failed');
      const now = this.now(account);
      if (outcome.status === 'succeeded') {
        requireTransition(invoice, 'paid');
        const paid: Invoice = { ...invoice, status: 'paid', paidAt: now, nextAttemptAt: null };
        effects.events.push({ name: 'invoice.paid', payload: { ...invoicePayload(paid), reference: outcome.reference } });
        return { account: this.restoreIfSettled(account, context.unpaid, paid, effects), updated: [paid], result: paid };
      }
      if (invoice.status !== 'open') throw conflict('invalid_invoice_state', `Invoice ${invoice.number} is ${invoice.status}`);
      const failures = invoice.attemptCount === 0 ? 1 : invoice.attemptCount;
      const retryAt = this.collector.automatic && invoice.finalizedAt ? nextRetryAt(invoice.finalizedAt, failures) : null;
      const failed: Invoice = { ...invoice, attemptCount: failures, lastFailure: outcome.reason, nextAttemptAt: retryAt };
      effects.events.push({
        name: 'invoice.payment_failed',
        payload: { ...invoicePayload(failed), reason: outcome.reason, next_attempt_at: retryAt?.toISOString() ?? null },
      });
      let next = account;
      if (account.status === 'active') {
        next = { ...account, status: 'past_due', pastDueSince: now };
        effects.events.push({
          name: 'organization.past_due',
          payload: { status: 'past_due', invoice_id: invoice.id, grace_ends_at: graceEndsAt(now, this.options.graceDays).toISOString() },
        });
      }
      return { account: next, updated: [failed], result: failed };
    });
  }

  private unchanged(account: BillingAccount, invoice: Invoice, failure: boolean): Omit<AccountStep<Invoice>, 'nextActionAt'> {
    if (failure || invoice.status !== 'paid') throw conflict('invalid_invoice_state', `Invoice ${invoice.number ?? invoice.id} is ${invoice.status}`);
    return { account, result: invoice }; // paid twice: the first report stands
  }

  /** Once no invoice is owed with a failed payment, the organization is restored at once. */
  private restoreIfSettled(account: BillingAccount, unpaid: Invoice[], settled: Invoice, effects: Effects): BillingAccount {
    if (account.status === 'active') return account;
    const stillOwed = unpaid.filter((i) => i.id !== settled.id && (i.lastFailure !== null || i.status === 'uncollectible'));
    if (stillOwed.length > 0) return account;
    effects.events.push({ name: 'organization.restored', payload: { status: 'active', previous_status: account.status } });
    if (account.status === 'suspended') effects.standingChanged = true;
    return { ...account, status: 'active', pastDueSince: null };
  }

  async markPaid(invoiceId: string, reference = 'operator'): Promise<Invoice> {
    const invoice = await this.requireInvoice(invoiceId);
    return this.record(invoice.organizationId, invoice.id, { status: 'succeeded', reference });
  }

  async reportFailure(invoiceId: string, reason: string): Promise<Invoice> {
    const invoice = await this.requireInvoice(invoiceId);
    return this.record(invoice.organizationId, invoice.id, { status: 'failed', reason });
  }

  async voidInvoice(invoiceId: string): Promise<Invoice> {
    return this.settle(invoiceId, 'void');
  }

  async markUncollectible(invoiceId: string): Promise<Invoice> {
    return this.settle(invoiceId, 'uncollectible');
  }

  private async settle(invoiceId: string, to: 'void' | 'uncollectible'): Promise<Invoice> {
    const found = await this.requireInvoice(invoiceId);
    return this.step(found.organizationId, async (account, context, effects) => {
      const invoice = context.unpaid.find((i) => i.id === invoiceId) ?? found;
      requireTransition(invoice, to);
      const now = this.now(account);
      const changed: Invoice =
        to === 'void'
          ? { ...invoice, status: 'void', voidedAt: now, nextAttemptAt: null }
          : { ...invoice, status: 'uncollectible', markedUncollectibleAt: now, nextAttemptAt: null };
      effects.events.push({ name: to === 'void' ? 'invoice.voided' : 'invoice.marked_uncollectible', payload: invoicePayload(changed) });
      const next = to === 'void' ? this.restoreIfSettled(account, context.unpaid, changed, effects) : account;
      return { account: next, updated: [changed], result: changed };
    });
  }

  /** Collects an open invoice now (sandbox: after a new payment method), whatever the schedule. */
  async retry(invoiceId: string, organizationId?: string): Promise<Invoice> {
    const found = await this.requireInvoice(invoiceId, organizationId);
    if (!this.collector.automatic)
      throw conflict('collection_by_host', 'The host collects invoices here (BILLING_COLLECTION=host): report the outcome instead');
    await this.step(found.organizationId, async (account, context, effects) => {
      const invoice = context.unpaid.find((i) => i.id === invoiceId);
      if (!invoice || invoice.status !== 'open')
        throw conflict('invalid_invoice_state', `Invoice ${found.number ?? found.id} is ${found.status} and cannot be collected`);
      const claimed = { ...invoice, attemptCount: invoice.attemptCount + 1, nextAttemptAt: crashFallback(this.now(account)) };
      effects.collect.push(claimed);
      return { account, updated: [claimed], result: undefined };
    });
    return this.requireInvoice(invoiceId);
  }

  async setPaymentMethod(organizationId: string, number: string): Promise<BillingAccount> {
    const digits = number.replace(/[\s-]/g, '');
    this.collector.validatePaymentMethod(digits);
    return this.step(organizationId, async (account) => {
      const next: BillingAccount = { ...account, paymentMethod: { type: 'test_card', last4: digits.slice(-4), number: digits } };
      return { account: next, result: next };
    });
  }

  /** Outside production: freezes the account's clock at `at` (only forwards). */
  async setTestClock(organizationId: string, at: Date): Promise<BillingAccount> {
    if (!this.options.testClocks) throw notFound('test clock');
    await this.step(organizationId, async (account) => {
      const now = this.now(account);
      if (account.testClockAt && at.getTime() < now.getTime()) throw invalid('clock_backwards', 'A test clock only moves forwards', 'frozen_time');
      if (!account.testClockAt && account.ledger.lastChangeAt && at.getTime() < account.ledger.lastChangeAt.getTime()) {
        throw invalid('clock_backwards', "A test clock cannot start before the account's last billed change", 'frozen_time');
      }
      return { account: { ...account, testClockAt: at }, result: undefined };
    });
    return this.account(organizationId);
  }

  /** Moves the test clock to `to`, stopping at every due renewal, retry and end of grace on the way. */
  async advanceTestClock(organizationId: string, to: Date): Promise<BillingAccount> {
    if (!this.options.testClocks) throw notFound('test clock');
    const account = await this.account(organizationId);
    if (!account.testClockAt) throw conflict('no_test_clock', 'This organization has no test clock (POST …/test_clock first)');
    if (to.getTime() < account.testClockAt.getTime()) throw invalid('clock_backwards', 'A test clock only moves forwards', 'to');
    await this.tick(organizationId); // whatever is due already, at the clock's current time
    for (let guard = 0; guard < 10_000; guard++) {
      const next = await this.repository.findAccount(organizationId);
      const due = next ? await this.nextDue(next) : null;
      const stop = due && due.getTime() <= to.getTime() ? due : to;
      await this.setClock(organizationId, stop);
      await this.tick(organizationId);
      if (stop === to) break;
    }
    return this.account(organizationId);
  }

  private async nextDue(account: BillingAccount): Promise<Date | null> {
    const unpaid = (await this.repository.listInvoices({ organizationId: account.organizationId, limit: 100 })).data.filter(isUnpaid);
    const due = this.nextActionAt(account, unpaid);
    return due && account.testClockAt && due.getTime() > account.testClockAt.getTime() ? due : null;
  }

  private async setClock(organizationId: string, at: Date): Promise<void> {
    await this.step(organizationId, async (account) => ({ account: { ...account, testClockAt: at }, result: undefined }));
  }

  async account(organizationId: string): Promise<BillingAccount> {
    return (await this.repository.findAccount(organizationId)) ?? newAccount(organizationId, emptyLedger());
  }

  /** What the change would be charged now, frozen as a quote the change may pass. */
  async quote(organizationId: string, request: BillingChange): Promise<Quote> {
    await this.tick(organizationId);
    const account = await this.account(organizationId);
    const fee = (await this.catalog.platformFee()).amount;
    const after = await this.proposed(account.ledger.holdings, request);
    const at = this.now(account);
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
    await this.tick(organizationId);
    return (await this.account(organizationId)).ledger.holdings.packages.some((p) => p.slug === packageSlug);
  }

  /** The quote a change passes, checked: the organization's, unexpired, for this change, and still current. */
  async requireQuote(organizationId: string, quoteId: string, change: BillingChange): Promise<Quote> {
    const quote = await this.repository.findQuote(quoteId, organizationId);
    if (!quote) throw invalid('quote_invalid', `No such quote: '${quoteId}'`, 'quote');
    if (quote.expiresAt.getTime() <= this.clock.now().getTime())
      throw conflict('quote_expired', `Quote ${quoteId} expired at ${quote.expiresAt.toISOString()}; ask for a new preview`);
    if (!sameChange(quote.change, change)) throw invalid('quote_mismatch', `Quote ${quoteId} is for another change (${quote.change.type})`, 'quote');
    const account = await this.account(organizationId);
    if (basisOf(account.ledger) !== quote.basis) throw conflict('quote_stale', `Something changed since quote ${quoteId}; ask for a new preview`);
    return quote;
  }

  /** The next invoice if nothing changes before the period ends. */
  async upcoming(organizationId: string): Promise<UpcomingInvoice> {
    await this.tick(organizationId);
    const account = await this.account(organizationId);
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

  async requireInvoice(invoiceId: string, organizationId?: string): Promise<Invoice> {
    const invoice = await this.repository.findInvoice(invoiceId, organizationId);
    if (!invoice) throw notFound('invoice', invoiceId);
    return invoice;
  }

  listInvoices(filter: { organizationId?: string; status?: Invoice['status']; limit: number; startingAfter?: string }) {
    return this.repository.listInvoices(filter);
  }

  /** Every account whose renewal, retry or grace is due: the renewal job's work list. */
  async runDue(limit = 500): Promise<number> {
    const due = await this.repository.dueOrganizations(limit);
    for (const organizationId of due) {
      try {
        await this.tick(organizationId);
      } catch (error) {
        this.logger.error({ organizationId, err: (error as Error).message }, 'billing renewal failed for an organization');
      }
    }
    return due.length;
  }

  private async publish(event: string, organizationId: string, payload: object): Promise<void> {
    try {
      await this.publisher.publish(event, organizationId, payload);
    } catch (error) {
      this.logger.warn({ event, organizationId, err: (error as Error).message }, 'publishing a billing event failed');
    }
  }
}

/**
 * A claimed collection attempt runs after the commit; if the process dies first, the
 * outcome never lands, so the claim leaves a retry an hour later (the outcome replaces it).
 */
const crashFallback = (at: Date): Date => new Date(at.getTime() + 3_600_000);

export function invoicePayload(invoice: Invoice): object {
  return {
    invoice_id: invoice.id,
    number: invoice.number,
    status: invoice.status,
    total: invoice.total,
    currency: invoice.currency,
    period_start: invoice.periodStart.toISOString(),
    period_end: invoice.periodEnd.toISOString(),
  };
}

/** The ledger's state a quote is valid for: the same holdings and the same last change. */
export const basisOf = (ledger: LedgerState): string =>
  JSON.stringify([
    ledger.period?.start ?? null,
    ledger.lastChangeAt ?? null,
    ledger.holdings.aLaCarte.map((a) => a.key).sort(),
    ledger.holdings.packages.map((p) => p.slug).sort(),
  ]);

/** À la carte actions keep the price they were taken at; new ones come with today's catalog price. */
function mergePrices(billed: Holdings, live: Holdings): Holdings {
  return {
    aLaCarte: live.aLaCarte.map((a) => billed.aLaCarte.find((b) => b.key === a.key) ?? a),
    packages: live.packages,
  };
}

const holdingKey = (h: Holdings): string =>
  JSON.stringify([
    h.aLaCarte.map((a) => `${a.key}@${a.price.amount}`).sort(),
    h.packages.map((p) => `${p.slug}@${p.price.amount}:${[...p.actionKeys].sort().join(',')}`).sort(),
  ]);

const sameHoldings = (a: Holdings, b: Holdings): boolean => holdingKey(a) === holdingKey(b);
