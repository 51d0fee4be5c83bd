/** JSON views of billing resources (snake_case, amounts in cents). */
import type { BillingAccount } from '../../domain/billing/billing-account';
import type { UpcomingInvoice } from '../../domain/billing/billing-service';
import type { Invoice } from '../../domain/billing/invoice';
import type { InvoiceLine } from '../../domain/billing/invoice-line';
import type { Quote } from '../../domain/billing/quote';

const iso = (at: Date | null | undefined) => (at ? at.toISOString() : null);

export const invoiceLineView = (line: InvoiceLine) => ({
  type: line.type,
  key: line.key,
  description: line.description,
  amount: line.amount,
  proration: line.proration,
  period_start: iso(line.periodStart),
  period_end: iso(line.periodEnd),
  ...(line.coveredBy ? { covered_by: line.coveredBy } : {}),
});

export const invoiceView = (invoice: Invoice) => ({
  id: invoice.id,
  object: 'invoice',
  organization_id: invoice.organizationId,
  number: invoice.number,
  status: invoice.status,
  currency: invoice.currency,
  period_start: iso(invoice.periodStart),
  period_end: iso(invoice.periodEnd),
  lines: invoice.lines.map(invoiceLineView),
  subtotal: invoice.subtotal,
  starting_credit: invoice.startingCredit,
  total: invoice.total,
  ending_credit: invoice.endingCredit,
  attempt_count: invoice.attemptCount,
  last_failure: invoice.lastFailure,
  next_attempt_at: iso(invoice.nextAttemptAt),
  created_at: iso(invoice.createdAt),
  finalized_at: iso(invoice.finalizedAt),
  paid_at: iso(invoice.paidAt),
  voided_at: iso(invoice.voidedAt),
  marked_uncollectible_at: iso(invoice.markedUncollectibleAt),
});

export const upcomingView = (upcoming: UpcomingInvoice) => ({
  object: 'upcoming_invoice',
  organization_id: upcoming.organizationId,
  currency: upcoming.currency,
  period_start: iso(upcoming.periodStart),
  period_end: iso(upcoming.periodEnd),
  lines: upcoming.lines.map(invoiceLineView),
  subtotal: upcoming.subtotal,
  starting_credit: upcoming.startingCredit,
  total: upcoming.total,
  ending_credit: upcoming.endingCredit,
});

export const quoteView = (quote: Quote) => ({
  id: quote.id,
  object: 'quote',
  prorated_at: iso(quote.at),
  lines: quote.lines.map(invoiceLineView),
  amount: quote.amount,
  recurring_after: quote.recurringAfter,
  currency: quote.currency,
  expires_at: iso(quote.expiresAt),
});

export const accountView = (account: BillingAccount, now: Date) => ({
  object: 'billing_account',
  organization_id: account.organizationId,
  status: account.status,
  past_due_since: iso(account.pastDueSince),
  current_period: account.ledger.period ? { start: iso(account.ledger.period.start), end: iso(account.ledger.period.end) } : null,
  credit_balance: account.ledger.creditBalance,
  payment_method: account.paymentMethod ? { type: account.paymentMethod.type, last4: account.paymentMethod.last4 } : null,
  test_clock: account.testClockAt ? { frozen_time: iso(account.testClockAt) } : null,
  now: iso(now),
});
