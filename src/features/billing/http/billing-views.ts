/** JSON views of billing resources (snake_case, amounts in cents). */
import type { BillingAccount } from '../domain/billing-account';
import type { UpcomingInvoice } from '../domain/billing-service';
import type { Invoice } from '../domain/invoice';
import type { InvoiceLine } from '../domain/invoice-line';
import type { Quote } from '../domain/quote';
import type { z } from 'zod';
import type { billingAccountSchema, invoiceLineSchema, invoiceSchema, quoteSchema, upcomingInvoiceSchema } from './billing-schemas';

const iso = (at: Date | null | undefined) => (at ? at.toISOString() : null);
const instant = (at: Date) => at.toISOString();

export const invoiceLineView = (line: InvoiceLine): z.output<typeof invoiceLineSchema> => ({
  type: line.type,
  key: line.key,
  description: line.description,
  amount: line.amount,
  proration: line.proration,
  period_start: instant(line.periodStart),
  period_end: instant(line.periodEnd),
  ...(line.coveredBy ? { covered_by: line.coveredBy } : {}),
});

export const invoiceView = (invoice: Invoice): z.output<typeof invoiceSchema> => ({
  id: invoice.id,
  object: 'invoice',
  organization_id: invoice.organizationId,
  number: invoice.number,
  status: invoice.status,
  currency: invoice.currency,
  period_start: instant(invoice.periodStart),
  period_end: instant(invoice.periodEnd),
  lines: invoice.lines.map(invoiceLineView),
  subtotal: invoice.subtotal,
  starting_credit: invoice.startingCredit,
  total: invoice.total,
  ending_credit: invoice.endingCredit,
  attempt_count: invoice.attemptCount,
  last_failure: invoice.lastFailure,
  next_attempt_at: iso(invoice.nextAttemptAt),
  created_at: instant(invoice.createdAt),
  finalized_at: iso(invoice.finalizedAt),
  paid_at: iso(invoice.paidAt),
  voided_at: iso(invoice.voidedAt),
  marked_uncollectible_at: iso(invoice.markedUncollectibleAt),
});

export const upcomingView = (upcoming: UpcomingInvoice): z.output<typeof upcomingInvoiceSchema> => ({
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

export const quoteView = (quote: Quote): z.output<typeof quoteSchema> => ({
  id: quote.id,
  object: 'quote',
  prorated_at: instant(quote.at),
  lines: quote.lines.map(invoiceLineView),
  amount: quote.amount,
  recurring_after: quote.recurringAfter,
  currency: quote.currency,
  expires_at: instant(quote.expiresAt),
});

export const accountView = (account: BillingAccount, now: Date): z.output<typeof billingAccountSchema> => ({
  object: 'billing_account',
  organization_id: account.organizationId,
  status: account.status,
  past_due_since: iso(account.pastDueSince),
  current_period: account.ledger.period ? { start: instant(account.ledger.period.start), end: instant(account.ledger.period.end) } : null,
  credit_balance: account.ledger.creditBalance,
  payment_method: account.paymentMethod ? { type: account.paymentMethod.type, last4: account.paymentMethod.last4 } : null,
  test_clock: account.testClockAt ? { frozen_time: instant(account.testClockAt) } : null,
  now: instant(now),
});
