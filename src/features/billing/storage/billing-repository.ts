/**
 * Billing storage on knex. `transact` is the one way an account changes: the row is
 * locked (SELECT … FOR UPDATE), so concurrent renewals of one organization run one after
 * the other and the second finds nothing due; `hi_invoices_one_per_period` backs that up.
 * Invoice numbers come from one counter row updated in the same transaction: a rolled
 * back finalization gives its number back, so numbers have no gaps.
 */
import type { Knex } from 'knex';
import { inject, injectable } from 'tsyringe';
import type { BillingAccount } from '../domain/billing-account';
import type { LedgerState } from '../domain/billing-ledger';
import { formatInvoiceNumber, type Invoice } from '../domain/invoice';
import { nextInvoiceSequence } from './invoice-numbers';
import type { InvoiceLine } from '../domain/invoice-line';
import type { AccountContext, AccountStep, BillingRepository, InvoiceFilter } from '../domain/ports';
import type { Quote } from '../domain/quote';
import type { Holdings } from '../domain/holdings';
import type { Database } from '../../../platform/database/database';
import { fromJson } from '../../../platform/database/json-column';
import { DATABASE } from '../../../platform/database/tokens';

const LIVE = ['provisioning', 'active'];

const date = (value: unknown): Date | null => (value === null || value === undefined ? null : new Date(value as string));

interface LineJson extends Omit<InvoiceLine, 'periodStart' | 'periodEnd'> {
  periodStart: string;
  periodEnd: string;
}

const lineFromJson = (line: LineJson): InvoiceLine => ({ ...line, periodStart: new Date(line.periodStart), periodEnd: new Date(line.periodEnd) });

function ledgerFromJson(value: unknown): LedgerState {
  const raw = fromJson<Record<string, any>>(value);
  return {
    holdings: raw.holdings,
    period: raw.period ? { start: new Date(raw.period.start), end: new Date(raw.period.end) } : null,
    feeChargedFor: date(raw.feeChargedFor),
    pending: (raw.pending as LineJson[]).map(lineFromJson),
    creditBalance: raw.creditBalance,
    lastChangeAt: date(raw.lastChangeAt),
  };
}

function accountFromRow(row: Record<string, any>): BillingAccount {
  return {
    organizationId: row.organization_id,
    status: row.status,
    ledger: ledgerFromJson(row.ledger),
    testClockAt: date(row.test_clock_at),
    pastDueSince: date(row.past_due_since),
    paymentMethod: row.payment_method ? fromJson(row.payment_method) : null,
  };
}

function invoiceFromRow(row: Record<string, any>): Invoice {
  return {
    id: row.id,
    organizationId: row.organization_id,
    number: row.number,
    status: row.status,
    currency: row.currency,
    periodStart: new Date(row.period_start),
    periodEnd: new Date(row.period_end),
    lines: fromJson<LineJson[]>(row.lines).map(lineFromJson),
    subtotal: row.subtotal,
    startingCredit: row.starting_credit,
    total: row.total,
    endingCredit: row.ending_credit,
    attemptCount: row.attempt_count,
    lastFailure: row.last_failure,
    nextAttemptAt: date(row.next_attempt_at),
    createdAt: new Date(row.created_at),
    finalizedAt: date(row.finalized_at),
    paidAt: date(row.paid_at),
    voidedAt: date(row.voided_at),
    markedUncollectibleAt: date(row.marked_uncollectible_at),
  };
}

function invoiceToRow(invoice: Invoice, now: Date) {
  return {
    id: invoice.id,
    organization_id: invoice.organizationId,
    number: invoice.number,
    status: invoice.status,
    currency: invoice.currency,
    period_start: invoice.periodStart,
    period_end: invoice.periodEnd,
    lines: JSON.stringify(invoice.lines),
    subtotal: invoice.subtotal,
    starting_credit: invoice.startingCredit,
    total: invoice.total,
    ending_credit: invoice.endingCredit,
    attempt_count: invoice.attemptCount,
    last_failure: invoice.lastFailure,
    next_attempt_at: invoice.nextAttemptAt,
    created_at: invoice.createdAt,
    finalized_at: invoice.finalizedAt,
    paid_at: invoice.paidAt,
    voided_at: invoice.voidedAt,
    marked_uncollectible_at: invoice.markedUncollectibleAt,
    updated_at: now,
  };
}

function accountToRow(account: BillingAccount, nextActionAt: Date | null, now: Date) {
  return {
    status: account.status,
    ledger: JSON.stringify(account.ledger),
    test_clock_at: account.testClockAt,
    past_due_since: account.pastDueSince,
    payment_method: account.paymentMethod ? JSON.stringify(account.paymentMethod) : null,
    next_action_at: nextActionAt,
    updated_at: now,
  };
}

@injectable()
export class KnexBillingRepository implements BillingRepository {
  constructor(@inject(DATABASE) private readonly db: Database) {}

  async transact<T>(
    organizationId: string,
    emptyAccount: () => BillingAccount,
    step: (account: BillingAccount, context: AccountContext) => AccountStep<T> | Promise<AccountStep<T>>,
  ): Promise<{ result: T; created: Invoice[] }> {
    return this.db.transaction(async (trx) => {
      const now = new Date();
      const empty = emptyAccount();
      await trx('hi_billing_accounts')
        .insert({ organization_id: organizationId, ...accountToRow(empty, null, now), created_at: now })
        .onConflict('organization_id')
        .ignore();
      const row = await trx('hi_billing_accounts').where({ organization_id: organizationId }).forUpdate().first();
      const unpaid = (await trx('hi_invoices').where({ organization_id: organizationId }).whereIn('status', ['open', 'uncollectible']).orderBy('seq')).map(
        invoiceFromRow,
      );
      const current = accountFromRow(row);
      const outcome = await step(current, { holdings: await this.holdings(trx, organizationId), unpaid });
      const next = accountToRow(outcome.account, outcome.nextActionAt, now);
      // A step that changed nothing (a renewal check with nothing due) writes nothing, not even updated_at.
      if (JSON.stringify(next) !== JSON.stringify(accountToRow(current, date(row.next_action_at), now)))
        await trx('hi_billing_accounts').where({ organization_id: organizationId }).update(next);
      const created: Invoice[] = [];
      for (const invoice of outcome.created ?? []) {
        const numbered = invoice.status !== 'draft' && !invoice.number ? { ...invoice, number: await this.nextNumber(trx) } : invoice;
        await trx('hi_invoices').insert(invoiceToRow(numbered, now));
        created.push(numbered);
      }
      for (const invoice of outcome.updated ?? []) {
        const { id, created_at: _created, ...columns } = invoiceToRow(invoice, now);
        await trx('hi_invoices').where({ id }).update(columns);
      }
      return { result: outcome.result, created };
    });
  }

  private async nextNumber(trx: Knex.Transaction): Promise<string> {
    return formatInvoiceNumber(await nextInvoiceSequence(trx, 'billing'));
  }

  /** Live à la carte licenses (with today's catalog price) and live subscriptions (with the price they were taken at). */
  private async holdings(trx: Knex.Transaction, organizationId: string): Promise<Holdings> {
    const actions = await trx('hi_licenses as l')
      .join('hi_catalog_actions as a', 'a.key', 'l.action_key')
      .where({ 'l.organization_id': organizationId, 'l.source': 'a_la_carte' })
      .whereIn('l.status', LIVE)
      .select('l.action_key', 'a.name', 'a.price_amount', 'a.currency');
    const subscriptions = await trx('hi_subscriptions as s')
      .join('hi_packages as p', 'p.id', 's.package_id')
      .where({ 's.organization_id': organizationId })
      .whereIn('s.status', LIVE)
      .select('s.id', 's.package_slug', 's.price_amount', 's.currency', 'p.name');
    const covered = subscriptions.length
      ? await trx('hi_licenses')
          .whereIn(
            'subscription_id',
            subscriptions.map((s) => s.id),
          )
          .select('subscription_id', 'action_key')
      : [];
    return {
      aLaCarte: actions.map((a) => ({ key: a.action_key, name: a.name, price: { amount: a.price_amount, currency: a.currency } })),
      packages: subscriptions.map((s) => ({
        slug: s.package_slug,
        name: s.name,
        price: { amount: s.price_amount, currency: s.currency },
        actionKeys: covered.filter((c) => c.subscription_id === s.id).map((c) => c.action_key as string),
      })),
    };
  }

  async findAccount(organizationId: string): Promise<BillingAccount | undefined> {
    const row = await this.db('hi_billing_accounts').where({ organization_id: organizationId }).first();
    return row ? accountFromRow(row) : undefined;
  }

  async findInvoice(invoiceId: string, organizationId?: string): Promise<Invoice | undefined> {
    const query = this.db('hi_invoices').where({ id: invoiceId });
    if (organizationId) query.andWhere({ organization_id: organizationId });
    const row = await query.first();
    return row ? invoiceFromRow(row) : undefined;
  }

  async listInvoices(filter: InvoiceFilter): Promise<{ data: Invoice[]; hasMore: boolean }> {
    const query = this.db('hi_invoices')
      .orderBy('seq', 'desc')
      .limit(filter.limit + 1);
    if (filter.organizationId) query.where({ organization_id: filter.organizationId });
    if (filter.status) query.where({ status: filter.status });
    if (filter.startingAfter) {
      const cursor = this.db('hi_invoices').where({ id: filter.startingAfter }).select('seq');
      if (filter.organizationId) cursor.andWhere({ organization_id: filter.organizationId });
      query.where('seq', '<', cursor);
    }
    const rows = await query;
    return { data: rows.slice(0, filter.limit).map(invoiceFromRow), hasMore: rows.length > filter.limit };
  }

  async dueOrganizations(limit: number): Promise<string[]> {
    const rows = await this.db('hi_billing_accounts')
      .whereRaw('next_action_at <= coalesce(test_clock_at, now())')
      .orderBy('next_action_at')
      .limit(limit)
      .select('organization_id');
    // Live licenses the ledger never recorded (the step after a purchase failed): reconcile them too.
    const unrecorded = await this.db('hi_licenses as l')
      .leftJoin('hi_billing_accounts as a', 'a.organization_id', 'l.organization_id')
      .whereIn('l.status', LIVE)
      .whereNull('a.next_action_at')
      .distinct('l.organization_id')
      .limit(limit);
    return [...new Set([...rows, ...unrecorded].map((r) => r.organization_id as string))];
  }

  async saveQuote(quote: Quote): Promise<void> {
    await this.db('hi_billing_quotes').insert({
      id: quote.id,
      organization_id: quote.organizationId,
      quote: JSON.stringify(quote),
      expires_at: quote.expiresAt,
    });
    // Expired quotes are of no use to anyone.
    await this.db('hi_billing_quotes')
      .where('expires_at', '<', new Date(Date.now() - 86_400_000))
      .delete();
  }

  async findQuote(quoteId: string, organizationId: string): Promise<Quote | undefined> {
    const row = await this.db('hi_billing_quotes').where({ id: quoteId, organization_id: organizationId }).first();
    if (!row) return undefined;
    const raw = fromJson<Record<string, any>>(row.quote);
    return { ...(raw as Quote), at: new Date(raw.at), expiresAt: new Date(raw.expiresAt), lines: (raw.lines as LineJson[]).map(lineFromJson) };
  }
}
