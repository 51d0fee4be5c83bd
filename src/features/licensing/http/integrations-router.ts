/**
 * Mounted at /v1/integrations: the catalog, packages (operators manage them), licenses
 * (SPEC 4.2), package subscriptions (SPEC 4.3) and the billing preview.
 */
import { PACKAGE_SLUG_PATTERN } from '../domain/action-key';
import type { CatalogService } from '../domain/catalog-service';
import type { PackageService } from '../domain/package-service';
import type { LicenseService } from '../domain/license-service';
import type { SubscriptionService } from '../domain/subscription-service';
import type { BillingPreviewService, ChangeRequest } from '../../billing/domain/billing-preview-service';
import { money } from '../../../kernel/money';
import { invalid } from '../../../kernel/errors';
import type { BillingCheckout } from '../../billing/domain/billing-checkout';
import type { BillingService } from '../../billing/domain/billing-service';
import type { BillingQuotes } from '../../billing/domain/billing-quotes';
import type { Principal } from '../../../platform/http/principal';
import { quoteView } from '../../billing/http/billing-views';
import { defineRoute, reply, z, type RouteDefinition } from '../../../platform/http/route';
import {
  billingPreviewSchema,
  catalogSchema,
  licenseListSchema,
  licenseSchema,
  packageListSchema,
  packageSchema,
  packageSwitchSchema,
  subscriptionListSchema,
  subscriptionSchema,
} from './integrations-schemas';
import { billingPreviewView, catalogView, licenseView, listView, packageView, subscriptionView, type HookHandlersOf } from './integrations-views';

export interface IntegrationsServices {
  catalog: CatalogService;
  packages: PackageService;
  licenses: LicenseService;
  subscriptions: SubscriptionService;
  billing: BillingPreviewService;
  /** Purchases with billing in the loop (standing, quotes, the ledger). */
  checkout: BillingCheckout;
  quotes: BillingQuotes;
  /** The ledger's rules (grace, proration) the catalog shows. */
  ledger: BillingService;
  /** Actions the modules perform themselves (PluginModule.builtInActions): runnable without a hook handler. */
  builtInActions?: ReadonlySet<string>;
  /** The connector kinds each built-in action needs (PluginModule.builtInActionSteps). */
  builtInStepsOf?: (actionKey: string) => readonly string[];
  /** Hook handlers registered per action (the hooks module's HookRegistry); none when absent. */
  hookHandlersOf?: HookHandlersOf;
  /** The connector kinds that resolve for an organization (undefined: the deployment alone). */
  availableKinds?: (organizationId: string | undefined) => Promise<ReadonlySet<string>>;
}

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;

const actionParams = z.object({ action_key: z.string().max(200) });
const packageParams = z.object({ package_slug: z.string().max(200) });

const price = z
  .object({ amount: z.number().int().min(0).max(100_000_000), currency: z.string().regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code such as USD') })
  .strict();
const actionKeys = z.array(z.string().max(200)).min(1).max(100);

const createPackageBody = z
  .object({
    slug: z.string().max(100).regex(PACKAGE_SLUG_PATTERN, 'expected lower case words joined by hyphens, e.g. temp-agencies'),
    name: z.string().min(1).max(200),
    description: z.string().max(2000).default(''),
    price,
    actions: actionKeys,
  })
  .strict()
  .meta({
    example: {
      slug: 'small-clinics',
      name: 'Small clinics',
      price: { amount: 4900, currency: 'USD' },
      actions: ['background_checks.credentialing', 'notifications.interview_reminder'],
    },
  });

const updatePackageBody = z
  .object({
    name: z.string().min(1).max(200).optional(),
    description: z.string().max(2000).optional(),
    price: price.optional(),
    actions: actionKeys.optional(),
  })
  .strict();

const licensesQuery = z
  .object({ status: z.enum(['requires_connection', 'provisioning', 'active', 'failed', 'deactivated']).optional(), action_key: z.string().max(200).optional() })
  .strict();

/** A quote from the billing preview: the change is charged exactly what it showed. */
const quoteQuery = z.object({ quote: z.string().max(100).optional() }).strict();

const previewQuery = z
  .object({
    activate: z.string().max(200).optional(),
    deactivate: z.string().max(200).optional(),
    subscribe: z.string().max(200).optional(),
    unsubscribe: z.string().max(200).optional(),
  })
  .strict();

function changeRequest(query: z.infer<typeof previewQuery>): ChangeRequest | null {
  const given = (['activate', 'deactivate', 'subscribe', 'unsubscribe'] as const).filter((k) => query[k] !== undefined);
  if (given.length > 1) throw invalid('too_many_changes', `Propose at most one change; got ${given.join(', ')}`, given[1]);
  const type = given[0];
  if (!type) return null;
  const value = query[type]!;
  return type === 'activate' || type === 'deactivate' ? { type, actionKey: value } : { type, packageSlug: value };
}

export function integrationsRoutes(s: IntegrationsServices): RouteDefinition<any, any, any>[] {
  return [
    defineRoute({
      method: 'get',
      path: '/catalog',
      operationId: 'getCatalog',
      summary: 'The action catalog: groups with their actions and monthly prices, and the à la carte platform fee',
      tags: ['integrations'],
      auth: ['organization', 'operator'],
      response: catalogSchema,
      handler: async ({ principal }) => {
        const kinds = s.availableKinds ? await s.availableKinds(principal.kind === 'organization' ? principal.organizationId : undefined) : undefined;
        return { ...catalogView(await s.catalog.catalog(), s.hookHandlersOf, kinds, s.builtInActions, s.builtInStepsOf), billing_rules: s.ledger.rules() };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/packages',
      operationId: 'listPackages',
      summary: 'Vertical packages (organizations see active ones; operators also archived ones)',
      tags: ['integrations'],
      auth: ['organization', 'operator'],
      response: packageListSchema,
      handler: async ({ principal }) => listView((await s.packages.list(principal.kind === 'operator')).map(packageView)),
    }),
    defineRoute({
      method: 'get',
      path: '/packages/:package_slug',
      operationId: 'getPackage',
      summary: 'One package with its actions and price',
      tags: ['integrations'],
      auth: ['organization', 'operator'],
      params: packageParams,
      response: packageSchema,
      handler: async ({ params }) => packageView(await s.packages.get(params.package_slug)),
    }),
    defineRoute({
      method: 'post',
      path: '/packages',
      operationId: 'createPackage',
      summary: 'Operator: create a package',
      tags: ['integrations'],
      auth: ['operator'],
      idempotent: true,
      body: createPackageBody,
      status: 201,
      response: packageSchema,
      errors: [409],
      handler: async ({ body }) =>
        packageView(
          await s.packages.create({
            slug: body.slug,
            name: body.name,
            description: body.description,
            price: money(body.price.amount, body.price.currency),
            actionKeys: body.actions,
          }),
        ),
    }),
    defineRoute({
      method: 'patch',
      path: '/packages/:package_slug',
      operationId: 'updatePackage',
      summary: 'Operator: change a package (name, description, price, actions); existing subscriptions keep theirs',
      tags: ['integrations'],
      auth: ['operator'],
      params: packageParams,
      body: updatePackageBody,
      response: packageSchema,
      handler: async ({ params, body }) =>
        packageView(
          await s.packages.update(params.package_slug, {
            name: body.name,
            description: body.description,
            price: body.price ? money(body.price.amount, body.price.currency) : undefined,
            actionKeys: body.actions,
          }),
        ),
    }),
    defineRoute({
      method: 'post',
      path: '/packages/:package_slug/archive',
      operationId: 'archivePackage',
      summary: 'Operator: archive a package (no new subscriptions; existing ones keep working)',
      tags: ['integrations'],
      auth: ['operator'],
      params: packageParams,
      response: packageSchema,
      handler: async ({ params }) => packageView(await s.packages.archive(params.package_slug)),
    }),
    defineRoute({
      method: 'post',
      path: '/licenses/:action_key/activate',
      operationId: 'activateLicense',
      summary: 'Activate an action à la carte (SPEC 4.2): 202 with the license while it provisions; an already active license answers 200',
      tags: ['integrations'],
      auth: ['organization'],
      idempotent: true,
      params: actionParams,
      status: 202,
      alsoAnswers: [200],
      response: licenseSchema,
      query: quoteQuery,
      // 402 payment_required: the organization is suspended for non-payment.
      errors: [402],
      handler: async ({ params, query, principal }) => {
        const { license } = await s.checkout.activate(orgId(principal), params.action_key, query.quote);
        return reply(license.status === 'active' ? 200 : 202, licenseView(license));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/licenses/:action_key/deactivate',
      operationId: 'deactivateLicense',
      summary: "Deactivate the organization's à la carte license for an action",
      tags: ['integrations'],
      auth: ['organization'],
      params: actionParams,
      response: licenseSchema,
      query: quoteQuery,
      errors: [409],
      handler: async ({ params, query, principal }) => licenseView(await s.checkout.deactivate(orgId(principal), params.action_key, query.quote)),
    }),
    defineRoute({
      method: 'get',
      path: '/licenses',
      operationId: 'listLicenses',
      summary: "The organization's licenses, newest first (filters: status, action_key)",
      tags: ['integrations'],
      auth: ['organization'],
      query: licensesQuery,
      response: licenseListSchema,
      handler: async ({ query, principal }) =>
        listView((await s.licenses.list(orgId(principal), { status: query.status, actionKey: query.action_key })).map(licenseView)),
    }),
    defineRoute({
      method: 'post',
      path: '/packages/:package_slug/subscribe',
      operationId: 'subscribePackage',
      summary: 'Subscribe to a package (SPEC 4.3): 202 with the subscription and its licenses while they provision; a live subscription answers 200',
      tags: ['integrations'],
      auth: ['organization'],
      idempotent: true,
      params: packageParams,
      status: 202,
      alsoAnswers: [200],
      response: subscriptionSchema,
      query: quoteQuery,
      errors: [402],
      handler: async ({ params, query, principal }) => {
        const result = await s.checkout.subscribe(orgId(principal), params.package_slug, query.quote);
        return reply(result.subscription.status === 'provisioning' ? 202 : 200, subscriptionView(result));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/packages/:package_slug/unsubscribe',
      operationId: 'unsubscribePackage',
      summary: "Cancel the organization's subscription to a package; its licenses are deactivated",
      tags: ['integrations'],
      auth: ['organization'],
      params: packageParams,
      response: subscriptionSchema,
      query: quoteQuery,
      // quote_expired, quote_stale.
      errors: [409],
      handler: async ({ params, query, principal }) => subscriptionView(await s.checkout.unsubscribe(orgId(principal), params.package_slug, query.quote)),
    }),
    defineRoute({
      method: 'post',
      path: '/packages/:package_slug/switch',
      operationId: 'switchPackage',
      summary:
        'Switch from this package to another in one step (billed at one instant; pass a quote from GET /v1/billing/quote?switch_from&switch_to to be charged exactly that)',
      tags: ['integrations'],
      auth: ['organization'],
      params: packageParams,
      query: z.object({ to: z.string().max(200), quote: z.string().max(100).optional() }).strict(),
      response: packageSwitchSchema,
      // 402 payment_required when suspended; 409 package_archived and the quote's conflicts.
      errors: [402, 409],
      handler: async ({ params, query, principal }): Promise<z.output<typeof packageSwitchSchema>> => {
        const { from, to } = await s.checkout.switchPackage(orgId(principal), params.package_slug, query.to, query.quote);
        return { object: 'package_switch', from: subscriptionView(from), to: subscriptionView(to) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/subscriptions',
      operationId: 'listSubscriptions',
      summary: "The organization's package subscriptions, newest first",
      tags: ['integrations'],
      auth: ['organization'],
      response: subscriptionListSchema,
      handler: async ({ principal }) => listView((await s.subscriptions.list(orgId(principal))).map(subscriptionView)),
    }),
    defineRoute({
      method: 'get',
      path: '/billing/preview',
      operationId: 'previewBilling',
      summary: 'Monthly total line by line, after one proposed change (activate, deactivate, subscribe or unsubscribe), and the cheapest covering package',
      tags: ['integrations'],
      auth: ['organization'],
      query: previewQuery,
      response: billingPreviewSchema,
      errors: [404, 409],
      handler: async ({ query, principal }) => {
        const change = changeRequest(query);
        const preview = billingPreviewView(await s.billing.preview(orgId(principal), change));
        // The quote comes from the same ledger calculation as the invoices.
        return { ...preview, quote: change ? quoteView(await s.quotes.quote(orgId(principal), change)) : null };
      },
    }),
  ];
}
