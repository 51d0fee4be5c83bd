/**
 * Mounted at /v1/client_invoices (payroll.invoicing): invoices to the agency's client
 * companies from approved timesheets; finalize (number + email), pay, void, the document.
 */
import { isoDateTime, nullableDateTime } from '../../../platform/http/common-schemas';
import type { Principal } from '../../../platform/http/principal';
import { defineRoute, reply, z, type RouteDefinition } from '../../../platform/http/route';
import { lineDescription, type ClientInvoice, type ClientInvoiceDocuments } from '../domain/client-invoice';
import type { ClientInvoiceService } from '../domain/client-invoice-service';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;
const params = z.object({ client_invoice_id: z.string().max(100) });

const createBody = z.strictObject({
  client_company_id: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,128}$/, 'expected 1-128 letters, digits, _ . or -')
    .meta({ example: 'cli_77' }),
  period_start: z.iso.date().meta({ description: 'Timesheets whose week starts on or after this day…', example: '2026-11-01' }),
  period_end: z.iso.date().meta({ description: '…and on or before this day', example: '2026-11-30' }),
});

const invoiceSchema = z
  .object({
    id: z.string().meta({ example: 'cinv_Jx8fQ2vZr1LkP0aYwE3c' }),
    object: z.literal('client_invoice'),
    number: z.string().nullable().meta({ description: 'INV-000001, gapless per agency, from finalization on', example: 'INV-000001' }),
    status: z.enum(['draft', 'open', 'paid', 'void']),
    client_company_id: z.string(),
    client_name: z.string(),
    contact_email: z.string(),
    period_start: z.string(),
    period_end: z.string(),
    currency: z.string(),
    lines: z.array(
      z.object({
        timesheet_id: z.string(),
        description: z.string(),
        regular_minutes: z.number().int(),
        overtime_minutes: z.number().int(),
        double_time_minutes: z.number().int(),
        bill_rate: z.number().int().meta({ description: 'Integer cents per hour' }),
        amount: z.number().int().meta({ description: 'Integer cents' }),
      }),
    ),
    total: z.number().int().meta({ description: 'Integer cents: exactly the sum of the lines' }),
    email_run_id: z.string().nullable().meta({ description: 'The action run that emailed the invoice to the client contact' }),
    email_error: z.string().nullable().meta({ description: 'Why the email did not go (finalize again to retry)' }),
    created_at: isoDateTime,
    finalized_at: nullableDateTime,
    paid_at: nullableDateTime,
    voided_at: nullableDateTime,
  })
  .meta({ id: 'ClientInvoice' });

const view = (i: ClientInvoice): z.output<typeof invoiceSchema> => ({
  id: i.id,
  object: 'client_invoice',
  number: i.number,
  status: i.status,
  client_company_id: i.clientCompanyId,
  client_name: i.clientName,
  contact_email: i.contactEmail,
  period_start: i.periodStart,
  period_end: i.periodEnd,
  currency: i.currency,
  lines: i.lines.map((l) => ({
    timesheet_id: l.timesheetId,
    description: lineDescription(l),
    regular_minutes: l.regularMinutes,
    overtime_minutes: l.overtimeMinutes,
    double_time_minutes: l.doubleTimeMinutes,
    bill_rate: l.billRateCents,
    amount: l.amount,
  })),
  total: i.total,
  email_run_id: i.emailRunId,
  email_error: i.emailError,
  created_at: i.createdAt.toISOString(),
  finalized_at: i.finalizedAt?.toISOString() ?? null,
  paid_at: i.paidAt?.toISOString() ?? null,
  voided_at: i.voidedAt?.toISOString() ?? null,
});

export function clientInvoiceRoutes(service: ClientInvoiceService, documents: ClientInvoiceDocuments): RouteDefinition<any, any, any>[] {
  const transition = (path: string, operationId: string, summary: string, act: (org: string, id: string) => Promise<ClientInvoice>) =>
    defineRoute({
      method: 'post',
      path,
      operationId,
      summary,
      tags: ['timesheets'],
      auth: ['organization'],
      params,
      response: invoiceSchema,
      errors: [403, 409, 503],
      handler: async ({ principal, params: p }) => view(await act(orgId(principal), p.client_invoice_id)),
    });
  return [
    defineRoute({
      method: 'post',
      path: '/',
      operationId: 'createClientInvoice',
      summary:
        "A draft invoice to a client company of its workers' approved, not yet invoiced timesheets in the period (nothing_to_invoice when there are none)",
      tags: ['timesheets'],
      auth: ['organization'],
      idempotent: true,
      body: createBody,
      status: 201,
      response: invoiceSchema,
      errors: [403, 409],
      handler: async ({ principal, body }) =>
        reply(
          201,
          view(await service.create(orgId(principal), { clientCompanyId: body.client_company_id, periodStart: body.period_start, periodEnd: body.period_end })),
        ),
    }),
    defineRoute({
      method: 'get',
      path: '/:client_invoice_id',
      operationId: 'getClientInvoice',
      summary: 'One client invoice',
      tags: ['timesheets'],
      auth: ['organization'],
      params,
      response: invoiceSchema,
      handler: async ({ principal, params: p }) => view(await service.get(orgId(principal), p.client_invoice_id)),
    }),
    transition(
      '/:client_invoice_id/finalize',
      'finalizeClientInvoice',
      "Number the draft (INV-…) and email it with its PDF to the client's contact (an action run); again on an open invoice whose email failed",
      (o, i) => service.finalize(o, i),
    ),
    transition('/:client_invoice_id/pay', 'payClientInvoice', 'Mark an open invoice paid', (o, i) => service.pay(o, i)),
    transition('/:client_invoice_id/void', 'voidClientInvoice', 'Void a draft or open invoice: its timesheets may be invoiced again', (o, i) =>
      service.void(o, i),
    ),
    defineRoute({
      method: 'get',
      path: '/:client_invoice_id/document',
      operationId: 'getClientInvoiceDocument',
      summary: 'The printable invoice (the billing engine’s renderer): an HTML page, or a PDF with format=pdf',
      tags: ['timesheets'],
      auth: ['organization'],
      params,
      query: z.object({ format: z.enum(['html', 'pdf']).default('html') }).strict(),
      produces: ['text/html', 'application/pdf'],
      handler: async ({ principal, params: p, query, res }) => {
        const invoice = await service.get(orgId(principal), p.client_invoice_id);
        res.setHeader('Cache-Control', 'no-store');
        res.setHeader('X-Content-Type-Options', 'nosniff');
        if (query.format === 'pdf') {
          res.setHeader('Content-Type', 'application/pdf');
          res.setHeader('Content-Disposition', `inline; filename="${invoice.number ?? invoice.id}.pdf"`);
          res.status(200).send(await documents.pdf(invoice));
        } else {
          res.setHeader('Content-Type', 'text/html; charset=utf-8');
          res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
          res.status(200).send(documents.html(invoice));
        }
        return undefined;
      },
    }),
  ];
}
