/** Storage port of billing. Every change to an account happens under its row lock. */
import type { Holdings } from './holdings';
import type { BillingAccount } from './billing-account';
import type { Invoice, InvoiceStatus } from './invoice';
import type { Quote } from './quote';

export interface AccountContext {
  /** What the organization holds now (live licenses and subscriptions), read under the lock; catalog prices for à la carte actions. */
  holdings: Holdings;
  /** Its invoices that are open or uncollectible, oldest first. */
  unpaid: Invoice[];
}

export interface AccountStep<T> {
  account: BillingAccount;
  /** New invoices; an `open` one without a number gets the deployment's next number. */
  created?: Invoice[];
  updated?: Invoice[];
  /** When this account next needs the renewal job (period end, retry, end of grace). */
  nextActionAt: Date | null;
  result: T;
}

export interface InvoiceFilter {
  organizationId?: string;
  status?: InvoiceStatus;
  limit: number;
  startingAfter?: string;
}

export interface BillingRepository {
  /**
   * Locks the organization's account (creating an empty one), reads its context, runs
   * `step` and stores what it returns, in one transaction. Created invoices come back
   * numbered. A second invoice for the same organization and period is refused by a
   * unique index, so a renewal can never be stored twice.
   */
  transact<T>(
    organizationId: string,
    emptyAccount: () => BillingAccount,
    step: (account: BillingAccount, context: AccountContext) => AccountStep<T> | Promise<AccountStep<T>>,
  ): Promise<{ result: T; created: Invoice[] }>;
  findAccount(organizationId: string): Promise<BillingAccount | undefined>;
  findInvoice(invoiceId: string, organizationId?: string): Promise<Invoice | undefined>;
  /** Newest first. */
  listInvoices(filter: InvoiceFilter): Promise<{ data: Invoice[]; hasMore: boolean }>;
  /** Accounts whose next action is due by their own clock (the system's, or their test clock). */
  dueOrganizations(limit: number): Promise<string[]>;
  saveQuote(quote: Quote): Promise<void>;
  findQuote(quoteId: string, organizationId: string): Promise<Quote | undefined>;
}

export const BILLING_REPOSITORY = Symbol('BillingRepository');
