/**
 * Mounted at /v1/billing: the organization's invoices (list, read, printable document),
 * the upcoming invoice, its billing account and sandbox payment method; and operator
 * calls across organizations (list, mark paid, report a failed payment, void, mark
 * uncollectible, retry) and test clocks (outside production).
 */
import type { BillingService } from '../domain/billing-service';
import type { BillingQuotes } from '../domain/billing-quotes';
import type { BillingTestClocks } from '../domain/billing-test-clocks';
import type { OrganizationService } from '../../organizations/domain/organization-service';
import { invoiceHtml, invoicePdf } from './invoice-document';
import type { Principal } from '../../../platform/http/principal';
import { defineRoute, reply, z, type RouteDefinition } from '../../../platform/http/route';
import { invalid } from '../../../kernel/errors';
import type { BillingChange } from '../domain/quote';
import type { BillingAccount } from '../domain/billing-account';
import { accountView, invoiceView, quoteView, upcomingView } from './billing-views';
import { billingAccountSchema, invoiceListSchema, invoiceSchema, quoteSchema, renewalRunSchema, upcomingInvoiceSchema } from './billing-schemas';

export interface BillingRouteServices {
  billing: BillingService;
  quotes: BillingQuotes;
  testClocks: BillingTestClocks;
  organizations: OrganizationService;
}

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;

const invoiceParams = z.object({ invoice_id: z.string().max(100) });
const organizationParams = z.object({ organization_id: z.string().max(100) });
const status = z.enum(['draft', 'open', 'paid', 'void', 'uncollectible']);
const listQuery = z
  .object({ limit: z.coerce.number().int().min(1).max(100).default(20), starting_after: z.string().max(100).optional(), status: status.optional() })
  .strict();
const operatorListQuery = listQuery.extend({ organization_id: z.string().max(100).optional() }).strict();
const documentQuery = z.object({ format: z.enum(['html', 'pdf']).default('html') }).strict();
const instant = z
  .string()
  .datetime({ offset: true })
  .transform((v) => new Date(v));

const quoteQuery = z
  .object({
    activate: z.string().max(200).optional(),
    deactivate: z.string().max(200).optional(),
    subscribe: z.string().max(200).optional(),
    unsubscribe: z.string().max(200).optional(),
    switch_from: z.string().max(200).optional(),
    switch_to: z.string().max(200).optional(),
  })
  .strict();

function quotedChange(query: z.infer<typeof quoteQuery>): BillingChange {
  const given = (['activate', 'deactivate', 'subscribe', 'unsubscribe', 'switch_from'] as const).filter((k) => query[k] !== undefined);
  if (given.length !== 1)
    throw invalid(
      given.length ? 'too_many_changes' : 'parameter_missing',
      'Quote exactly one change: activate, deactivate, subscribe, unsubscribe, or switch_from with switch_to',
      given[1] ?? 'activate',
    );
  const type = given[0]!;
  if (type === 'switch_from') {
    if (!query.switch_to) throw invalid('parameter_missing', 'Missing required parameter: switch_to', 'switch_to');
    return { type: 'switch', fromSlug: query.switch_from!, toSlug: query.switch_to };
  }
  if (query.switch_to !== undefined) throw invalid('parameter_unknown', 'switch_to goes with switch_from', 'switch_to');
  const value = query[type]!;
  return type === 'activate' || type === 'deactivate' ? { type, actionKey: value } : { type, packageSlug: value };
}

const list = (page: { data: Parameters<typeof invoiceView>[0][]; hasMore: boolean }): z.output<typeof invoiceListSchema> => ({
  object: 'list',
  data: page.data.map(invoiceView),
  has_more: page.hasMore,
});

export function billingRoutes(s: BillingRouteServices): RouteDefinition<any, any, any>[] {
  /** The account as the API shows it, at the account's own clock (its test clock when one is set). */
  const account = async (read: Promise<BillingAccount>) => {
    const current = await read;
    return accountView(current, s.billing.now(current));
  };
  /** Another organization's account, for the operator: an unknown organization is a 404 before anything runs. */
  const operatorAccount = async (organizationId: string, act: () => Promise<BillingAccount>) => {
    await s.organizations.get(organizationId);
    return account(act());
  };
  return [
    defineRoute({
      method: 'get',
      path: '/invoices',
      operationId: 'listInvoices',
      summary: "The organization's invoices, newest first",
      tags: ['billing'],
      auth: ['organization'],
      query: listQuery,
      response: invoiceListSchema,
      handler: async ({ query, principal }) =>
        list(await s.billing.listInvoices({ organizationId: orgId(principal), status: query.status, limit: query.limit, startingAfter: query.starting_after })),
    }),
    defineRoute({
      method: 'get',
      path: '/invoices/upcoming',
      operationId: 'getUpcomingInvoice',
      summary: 'The next invoice if nothing changes before the period ends: pending prorations plus the next period in advance',
      tags: ['billing'],
      auth: ['organization'],
      response: upcomingInvoiceSchema,
      handler: async ({ principal }) => upcomingView(await s.quotes.upcoming(orgId(principal))),
    }),
    defineRoute({
      method: 'get',
      path: '/quote',
      operationId: 'quoteChange',
      summary:
        'Quote one change (activate, deactivate, subscribe, unsubscribe, or a package switch): the lines it adds to the next invoice, valid 10 minutes; pass its id to the change to be charged exactly that',
      tags: ['billing'],
      auth: ['organization'],
      query: quoteQuery,
      response: quoteSchema,
      // An unknown action or package; an archived package or a change that does not apply.
      errors: [404, 409],
      handler: async ({ query, principal }) => quoteView(await s.quotes.quote(orgId(principal), quotedChange(query))),
    }),
    defineRoute({
      method: 'get',
      path: '/invoices/:invoice_id',
      operationId: 'getInvoice',
      summary: 'One invoice of the organization',
      tags: ['billing'],
      auth: ['organization'],
      params: invoiceParams,
      response: invoiceSchema,
      handler: async ({ params, principal }) => invoiceView(await s.billing.requireInvoice(params.invoice_id, orgId(principal))),
    }),
    defineRoute({
      method: 'get',
      path: '/invoices/:invoice_id/document',
      operationId: 'getInvoiceDocument',
      summary: 'The printable invoice: an HTML page, or a PDF with format=pdf',
      tags: ['billing'],
      auth: ['organization', 'operator'],
      params: invoiceParams,
      query: documentQuery,
      produces: ['text/html', 'application/pdf'],
      handler: async ({ params, query, principal, res }) => {
        const invoice = await s.billing.requireInvoice(params.invoice_id, principal.kind === 'operator' ? undefined : orgId(principal));
        const organization = await s.organizations.get(invoice.organizationId);
        res.setHeader('Cache-Control', 'no-store');
        res.setHeader('X-Content-Type-Options', 'nosniff');
        if (query.format === 'pdf') {
          const pdf = await invoicePdf(invoice, organization.name);
          res.setHeader('Content-Type', 'application/pdf');
          res.setHeader('Content-Disposition', `inline; filename="${invoice.number ?? invoice.id}.pdf"`);
          res.status(200).send(pdf);
        } else {
          res.setHeader('Content-Type', 'text/html; charset=utf-8');
          res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
          res.status(200).send(invoiceHtml(invoice, organization.name));
        }
        return undefined;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/invoices/:invoice_id/pay',
      operationId: 'payInvoice',
      summary: 'Sandbox collection: charge an open invoice now with the current payment method',
      tags: ['billing'],
      auth: ['organization'],
      params: invoiceParams,
      response: invoiceSchema,
      // invalid_invoice_state (not open), collection_by_host.
      errors: [409],
      handler: async ({ params, principal }) => invoiceView(await s.billing.retry(params.invoice_id, orgId(principal))),
    }),
    defineRoute({
      method: 'get',
      path: '/account',
      operationId: 'getBillingAccount',
      summary: "The organization's billing standing, current period, credit balance and payment method",
      tags: ['billing'],
      auth: ['organization'],
      response: billingAccountSchema,
      handler: async ({ principal }) => {
        return account(s.billing.account(orgId(principal)));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/payment_method',
      operationId: 'setPaymentMethod',
      summary: 'Sandbox collection: set the test card charged for invoices',
      tags: ['billing'],
      auth: ['organization'],
      body: z.object({ number: z.string().min(12).max(32) }).strict(),
      response: billingAccountSchema,
      // collection_by_host: payment methods live with the host.
      errors: [409],
      handler: async ({ body, principal }) => {
        return account(s.billing.setPaymentMethod(orgId(principal), body.number));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/operator/invoices',
      operationId: 'operatorListInvoices',
      summary: 'Operator: invoices across organizations, newest first',
      tags: ['billing'],
      auth: ['operator'],
      query: operatorListQuery,
      response: invoiceListSchema,
      handler: async ({ query }) =>
        list(
          await s.billing.listInvoices({
            organizationId: query.organization_id,
            status: query.status,
            limit: query.limit,
            startingAfter: query.starting_after,
          }),
        ),
    }),
    defineRoute({
      method: 'post',
      path: '/operator/invoices/:invoice_id/mark_paid',
      operationId: 'operatorMarkInvoicePaid',
      summary: 'Operator (or the host collecting): the invoice was paid',
      tags: ['billing'],
      auth: ['operator'],
      params: invoiceParams,
      body: z.object({ reference: z.string().min(1).max(200).optional() }).strict(),
      response: invoiceSchema,
      errors: [409],
      handler: async ({ params, body }) => invoiceView(await s.billing.markPaid(params.invoice_id, body.reference)),
    }),
    defineRoute({
      method: 'post',
      path: '/operator/invoices/:invoice_id/payment_failed',
      operationId: 'operatorReportPaymentFailed',
      summary: 'Operator (or the host collecting): a payment attempt failed; the organization becomes past_due',
      tags: ['billing'],
      auth: ['operator'],
      params: invoiceParams,
      body: z.object({ reason: z.string().min(1).max(500) }).strict(),
      response: invoiceSchema,
      errors: [409],
      handler: async ({ params, body }) => invoiceView(await s.billing.reportFailure(params.invoice_id, body.reason)),
    }),
    defineRoute({
      method: 'post',
      path: '/operator/invoices/:invoice_id/void',
      operationId: 'operatorVoidInvoice',
      summary: 'Operator: void an invoice (nothing is owed)',
      tags: ['billing'],
      auth: ['operator'],
      params: invoiceParams,
      response: invoiceSchema,
      errors: [409],
      handler: async ({ params }) => invoiceView(await s.billing.voidInvoice(params.invoice_id)),
    }),
    defineRoute({
      method: 'post',
      path: '/operator/invoices/:invoice_id/mark_uncollectible',
      operationId: 'operatorMarkInvoiceUncollectible',
      summary: 'Operator (or the host collecting): written off; still owed, and may be paid later',
      tags: ['billing'],
      auth: ['operator'],
      params: invoiceParams,
      response: invoiceSchema,
      errors: [409],
      handler: async ({ params }) => invoiceView(await s.billing.markUncollectible(params.invoice_id)),
    }),
    defineRoute({
      method: 'post',
      path: '/operator/invoices/:invoice_id/retry',
      operationId: 'operatorRetryInvoice',
      summary: 'Operator: attempt collection now (sandbox collection)',
      tags: ['billing'],
      auth: ['operator'],
      params: invoiceParams,
      response: invoiceSchema,
      errors: [409],
      handler: async ({ params }) => invoiceView(await s.billing.retry(params.invoice_id)),
    }),
    defineRoute({
      method: 'get',
      path: '/operator/organizations/:organization_id/account',
      operationId: 'operatorGetBillingAccount',
      summary: "Operator: an organization's billing account",
      tags: ['billing'],
      auth: ['operator'],
      params: organizationParams,
      response: billingAccountSchema,
      handler: async ({ params }) => {
        return operatorAccount(params.organization_id, () => s.billing.account(params.organization_id));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/operator/organizations/:organization_id/test_clock',
      operationId: 'operatorSetTestClock',
      summary: "Operator, outside production: freeze the organization's billing clock at frozen_time",
      tags: ['billing'],
      auth: ['operator'],
      params: organizationParams,
      body: z.object({ frozen_time: instant }).strict(),
      response: billingAccountSchema,
      handler: async ({ params, body }) => {
        return operatorAccount(params.organization_id, () => s.testClocks.setTestClock(params.organization_id, body.frozen_time));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/operator/organizations/:organization_id/test_clock/advance',
      operationId: 'operatorAdvanceTestClock',
      summary: 'Operator, outside production: advance the test clock; renewals, retries and dunning due on the way run in order',
      tags: ['billing'],
      auth: ['operator'],
      params: organizationParams,
      body: z.object({ to: instant }).strict(),
      response: billingAccountSchema,
      // no_test_clock: advancing a clock never set.
      errors: [409],
      handler: async ({ params, body }) => {
        return operatorAccount(params.organization_id, () => s.testClocks.advanceTestClock(params.organization_id, body.to));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/operator/renewals/run',
      operationId: 'operatorRunRenewals',
      summary: 'Operator: run the renewal job now (every due account)',
      tags: ['billing'],
      auth: ['operator'],
      response: renewalRunSchema,
      handler: async () => reply(200, { object: 'renewal_run', accounts: await s.billing.runDue() }),
    }),
  ];
}
