/**
 * The printable client invoice, drawn by the billing engine's renderer (billing/http/
 * invoice-document.ts: HTML and pdfkit in the embedded Noto fonts), so both kinds of invoice
 * look and print alike. The client company stands where billing puts the organization.
 */
import type { Invoice } from '../../billing/domain/invoice';
import { invoiceHtml, invoicePdf } from '../../billing/http/invoice-document';
import { lineDescription, type ClientInvoice, type ClientInvoiceDocuments } from '../domain/client-invoice';

/** The instant a YYYY-MM-DD day starts (UTC); billing prints a period as [start, end − 1 s]. */
const dayStart = (date: string) => new Date(`${date}T00:00:00Z`);
const dayAfter = (date: string) => new Date(dayStart(date).getTime() + 86_400_000);

export function printable(invoice: ClientInvoice): Invoice {
  return {
    id: invoice.id,
    organizationId: invoice.clientCompanyId,
    number: invoice.number,
    status: invoice.status,
    currency: invoice.currency,
    periodStart: dayStart(invoice.periodStart),
    periodEnd: dayAfter(invoice.periodEnd),
    lines: invoice.lines.map((l) => ({
      type: 'action' as const,
      key: null,
      description: lineDescription(l),
      amount: l.amount,
      proration: false,
      periodStart: dayStart(l.periodStart),
      periodEnd: dayAfter(l.periodEnd),
    })),
    subtotal: invoice.total,
    startingCredit: 0,
    total: invoice.total,
    endingCredit: 0,
    attemptCount: 0,
    lastFailure: null,
    nextAttemptAt: null,
    createdAt: invoice.createdAt,
    finalizedAt: invoice.finalizedAt,
    paidAt: invoice.paidAt,
    voidedAt: invoice.voidedAt,
    markedUncollectibleAt: null,
  };
}

export class BillingRendererClientInvoices implements ClientInvoiceDocuments {
  html(invoice: ClientInvoice): string {
    return invoiceHtml(printable(invoice), invoice.clientName);
  }

  pdf(invoice: ClientInvoice): Promise<Buffer> {
    return invoicePdf(printable(invoice), invoice.clientName);
  }
}
