/**
 * payroll.invoicing: a client invoice bills one client company for the approved timesheets
 * of its placed workers in a period. `draft` (lines fixed, the timesheets reserved) → `open`
 * (numbered from the billing engine's counters, emailed with its PDF) → `paid`; `draft` or
 * `open` → `void` (the timesheets are released and may be invoiced again).
 */
import { conflict } from '../../../kernel/errors';
import { hoursOf } from './overtime';
import type { ApprovedTimesheet } from './ports';

export const INVOICING_ACTION = 'payroll.invoicing';
export const CLIENT_INVOICE_PREFIX = 'INV';

export type ClientInvoiceStatus = 'draft' | 'open' | 'paid' | 'void';

export interface ClientInvoiceLine {
  timesheetId: string;
  workerName: string;
  periodStart: string;
  periodEnd: string;
  regularMinutes: number;
  overtimeMinutes: number;
  doubleTimeMinutes: number;
  billRateCents: number;
  /** The timesheet's bill amount: rate × (regular + 1.5 × overtime + 2 × double time), rounded once per timesheet. */
  amount: number;
}

export interface ClientInvoice {
  id: string;
  organizationId: string;
  clientCompanyId: string;
  clientName: string;
  contactName: string;
  contactEmail: string;
  periodStart: string;
  periodEnd: string;
  status: ClientInvoiceStatus;
  number: string | null;
  currency: string;
  lines: ClientInvoiceLine[];
  total: number;
  emailRunId: string | null;
  emailError: string | null;
  createdAt: Date;
  finalizedAt: Date | null;
  paidAt: Date | null;
  voidedAt: Date | null;
}

/** One line per approved timesheet; the total is their exact sum (no second rounding). */
export function invoiceLines(timesheets: readonly ApprovedTimesheet[]): { lines: ClientInvoiceLine[]; total: number; currency: string } {
  const currencies = new Set(timesheets.map((t) => t.currency));
  if (currencies.size > 1)
    throw conflict('currency_mismatch', `The timesheets are in ${[...currencies].join(' and ')}: invoice each currency's placements apart`);
  const lines = timesheets.map((t) => ({
    timesheetId: t.timesheetId,
    workerName: t.workerName,
    periodStart: t.periodStart,
    periodEnd: t.periodEnd,
    regularMinutes: t.regularMinutes,
    overtimeMinutes: t.overtimeMinutes,
    doubleTimeMinutes: t.doubleTimeMinutes,
    billRateCents: t.billRateCents,
    amount: t.billCents,
  }));
  return { lines, total: lines.reduce((sum, l) => sum + l.amount, 0), currency: timesheets[0]?.currency ?? 'USD' };
}

/** "Rosa Díaz: 40.00 h × 45.00, 2.50 h overtime × 67.50" (the multiplier applied to the rate). */
export function lineDescription(line: ClientInvoiceLine): string {
  const rate = (cents: number) => (cents / 100).toFixed(2);
  const parts = [`${hoursOf(line.regularMinutes)} h × ${rate(line.billRateCents)}`];
  if (line.overtimeMinutes) parts.push(`${hoursOf(line.overtimeMinutes)} h overtime × ${rate(line.billRateCents * 1.5)}`);
  if (line.doubleTimeMinutes) parts.push(`${hoursOf(line.doubleTimeMinutes)} h double time × ${rate(line.billRateCents * 2)}`);
  return `${line.workerName}: ${parts.join(', ')}`;
}

const ALLOWED: Record<'open' | 'paid' | 'void', readonly ClientInvoiceStatus[]> = { open: ['draft'], paid: ['open'], void: ['draft', 'open'] };

export function requireClientInvoiceTransition(invoice: ClientInvoice, to: 'open' | 'paid' | 'void'): void {
  if (!ALLOWED[to].includes(invoice.status)) {
    throw conflict('invalid_invoice_state', `Invoice ${invoice.number ?? invoice.id} is ${invoice.status} and cannot become ${to}`);
  }
}

export interface ClientInvoiceRepository {
  /** Inserts the draft and reserves its timesheets in one transaction; false when one of them was invoiced meanwhile. */
  createDraft(invoice: ClientInvoice): Promise<boolean>;
  get(organizationId: string, id: string): Promise<ClientInvoice | undefined>;
  /** draft → open with the next number of the organization's series, in one transaction; undefined when it was not a draft. */
  finalize(id: string, at: Date): Promise<ClientInvoice | undefined>;
  /** Moves the status when it is one of `from` (void releases the timesheets); false otherwise. */
  transition(id: string, from: readonly ClientInvoiceStatus[], to: 'paid' | 'void', at: Date): Promise<boolean>;
  recordEmail(id: string, outcome: { runId: string | null; error: string | null }): Promise<void>;
}

/** Renders the printable invoice (billing's renderer). */
export interface ClientInvoiceDocuments {
  html(invoice: ClientInvoice): string;
  pdf(invoice: ClientInvoice): Promise<Buffer>;
}

export const CLIENT_INVOICE_REPOSITORY = Symbol('ClientInvoiceRepository');
export const CLIENT_INVOICE_DOCUMENTS = Symbol('ClientInvoiceDocuments');
