import { z } from 'zod';
import { isoDateTime, listOf, nullableDateTime } from '../../../platform/http/common-schemas';

const cents = (description: string) => z.number().int().meta({ description });

export const invoiceLineSchema = z
  .object({
    type: z.enum(['platform_fee', 'package', 'action']),
    key: z.string().nullable().meta({ description: 'Package slug or action key; null for the platform fee' }),
    description: z.string(),
    amount: cents('Signed cents: a credit for unused time is negative'),
    proration: z.boolean().meta({ description: 'A charge or credit for part of a period (a change inside it)' }),
    period_start: isoDateTime,
    period_end: isoDateTime,
    covered_by: z.string().optional().meta({ description: 'A covered à la carte action: the package that includes it (the line is 0)' }),
  })
  .meta({ id: 'InvoiceLine' });

const invoiceStatus = z.enum(['draft', 'open', 'paid', 'void', 'uncollectible']);

export const invoiceSchema = z
  .object({
    id: z.string().meta({ example: 'inv_3cD5eF7gH9jK1lM3nP5q' }),
    object: z.literal('invoice'),
    organization_id: z.string(),
    number: z.string().nullable().meta({ description: 'HI-000123, from finalization on', example: 'HI-000123' }),
    status: invoiceStatus,
    currency: z.string().meta({ example: 'USD' }),
    period_start: isoDateTime,
    period_end: isoDateTime,
    lines: z.array(invoiceLineSchema),
    subtotal: cents('Sum of the lines'),
    starting_credit: cents('Credit balance applied'),
    total: cents('Owed: never below 0'),
    ending_credit: cents('Credit balance left for the next invoice'),
    attempt_count: z.number().int(),
    last_failure: z.string().nullable(),
    next_attempt_at: nullableDateTime,
    created_at: isoDateTime,
    finalized_at: nullableDateTime,
    paid_at: nullableDateTime,
    voided_at: nullableDateTime,
    marked_uncollectible_at: nullableDateTime,
  })
  .meta({ id: 'Invoice' });

export const invoiceListSchema = listOf(invoiceSchema);

export const upcomingInvoiceSchema = z
  .object({
    object: z.literal('upcoming_invoice'),
    organization_id: z.string(),
    currency: z.string(),
    period_start: nullableDateTime,
    period_end: nullableDateTime,
    lines: z.array(invoiceLineSchema),
    subtotal: z.number().int(),
    starting_credit: z.number().int(),
    total: z.number().int(),
    ending_credit: z.number().int(),
  })
  .meta({ id: 'UpcomingInvoice' });

export const quoteSchema = z
  .object({
    id: z.string().meta({ example: 'quote_7gH9jK1lM3nP5qR7sT9v' }),
    object: z.literal('quote'),
    prorated_at: isoDateTime,
    lines: z.array(invoiceLineSchema),
    amount: cents('What the change adds to the next invoice'),
    recurring_after: cents('The monthly total from the next period on'),
    currency: z.string(),
    expires_at: isoDateTime,
  })
  .meta({ id: 'Quote' });

export const billingAccountSchema = z
  .object({
    object: z.literal('billing_account'),
    organization_id: z.string(),
    status: z.enum(['active', 'past_due', 'suspended']),
    past_due_since: nullableDateTime,
    current_period: z.object({ start: isoDateTime, end: isoDateTime }).nullable(),
    credit_balance: z.number().int(),
    payment_method: z.object({ type: z.literal('test_card'), last4: z.string() }).nullable(),
    test_clock: z.object({ frozen_time: isoDateTime }).nullable(),
    now: isoDateTime.meta({ description: "The account's clock: its test clock if it has one" }),
  })
  .meta({ id: 'BillingAccount' });

export const renewalRunSchema = z.object({ object: z.literal('renewal_run'), accounts: z.number().int() }).meta({ id: 'RenewalRun' });

/** The billing rules the catalog states (`billing_rules`). */
export const billingRulesSchema = z
  .object({
    period: z.string(),
    billed: z.string(),
    proration: z.string(),
    rounding: z.string(),
    platform_fee: z.string(),
    covered_actions: z.string(),
    credits: z.string(),
    prices: z.string(),
    quote_ttl_seconds: z.number().int(),
    grace_days: z.number().int(),
    retry_schedule_days: z.array(z.number().int()),
  })
  .meta({ id: 'BillingRules' });
