/**
 * A quote: what one proposed change will be charged, frozen for QUOTE_TTL_SECONDS. An
 * activation, subscription or switch that passes its id is prorated from the quote's
 * instant, so it is charged exactly the quoted lines (a change made meanwhile makes the
 * quote stale: 409 `quote_stale`, ask for a new preview).
 */
import type { ChangeRequest } from './billing-preview-service';
import type { InvoiceLine } from './invoice-line';

export const QUOTE_TTL_SECONDS = 600;

/** A change billing can quote: one of the preview's, or a switch from one package to another. */
export type BillingChange = ChangeRequest | { type: 'switch'; fromSlug: string; toSlug: string };

export interface Quote {
  id: string;
  organizationId: string;
  change: BillingChange;
  /** The proration instant (the account's clock when quoted). */
  at: Date;
  /** Proration lines the change makes now (on the next invoice). */
  lines: InvoiceLine[];
  amount: number;
  /** The monthly total from the next period on. */
  recurringAfter: number;
  currency: string;
  /** The ledger state the quote was computed from. */
  basis: string;
  expiresAt: Date;
}

export const sameChange = (a: BillingChange, b: BillingChange): boolean => JSON.stringify(changeKey(a)) === JSON.stringify(changeKey(b));

const changeKey = (c: BillingChange) => [
  c.type,
  'actionKey' in c ? c.actionKey : null,
  'packageSlug' in c ? c.packageSlug : null,
  'fromSlug' in c ? [c.fromSlug, c.toSlug] : null,
];
