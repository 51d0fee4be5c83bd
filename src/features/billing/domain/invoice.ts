/**
 * An invoice: `draft` → `open` (finalized: numbered, immutable lines) → `paid`, `void` or
 * `uncollectible` (an uncollectible invoice may still be paid later). Renewal creates the
 * draft and finalizes it in the same step; numbers are gapless per deployment.
 */
import { conflict } from '../../../kernel/errors';
import type { RenewalInvoice } from './billing-ledger';

export type InvoiceStatus = 'draft' | 'open' | 'paid' | 'void' | 'uncollectible';

/** What the ledger's renewal computed (period, lines, totals, credit), kept as finalized. */
export interface Invoice extends RenewalInvoice {
  id: string;
  organizationId: string;
  /** `HI-000123`, from finalization on. */
  number: string | null;
  status: InvoiceStatus;
  currency: string;
  /** Collection attempts made (sandbox) or failures reported (host). */
  attemptCount: number;
  lastFailure: string | null;
  /** When the next automatic retry is due (sandbox collection), else null. */
  nextAttemptAt: Date | null;
  createdAt: Date;
  finalizedAt: Date | null;
  paidAt: Date | null;
  voidedAt: Date | null;
  markedUncollectibleAt: Date | null;
}

/** `HI-000123` (the plugin's own invoices); other series pass their prefix (`INV-000007`). */
export const formatInvoiceNumber = (sequence: number, prefix = 'HI'): string => `${prefix}-${String(sequence).padStart(6, '0')}`;

/** Open or written off: money is still owed. */
export const isUnpaid = (invoice: Invoice): boolean => invoice.status === 'open' || invoice.status === 'uncollectible';

export function requireTransition(invoice: Invoice, to: 'paid' | 'void' | 'uncollectible'): void {
  const allowed: Record<typeof to, InvoiceStatus[]> = { paid: ['open', 'uncollectible'], void: ['draft', 'open', 'uncollectible'], uncollectible: ['open'] };
  if (!allowed[to].includes(invoice.status)) {
    throw conflict('invalid_invoice_state', `Invoice ${invoice.number ?? invoice.id} is ${invoice.status} and cannot become ${to}`);
  }
}
