/**
 * Mounted at /v1/background-checks: an organization's vendor-backed checks (read), the FCRA
 * adverse action on one (pre-adverse notice, final notice after the waiting period, or cancel),
 * and the vendor's result webhook (public, one address per organization, verified by signature).
 */
import type { Principal } from '../../../platform/http/principal';
import { listOf } from '../../../platform/http/common-schemas';
import { defineRoute, z, type RouteDefinition } from '../../../platform/http/route';
import type { AdverseActionService } from '../domain/adverse-action-service';
import type { BackgroundCheckService } from '../domain/background-check-service';
import {
  backgroundCheckSchema,
  backgroundCheckView,
  checkParams,
  startAdverseActionBody,
  vendorEventAnswer,
  vendorEventBody,
} from './background-check-schemas';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;

export const VENDOR_WEBHOOK_OPERATION = 'receiveBackgroundCheckVendorEvent';

export function backgroundCheckRoutes(checks: BackgroundCheckService, adverse: AdverseActionService): RouteDefinition<any, any, any>[] {
  return [
    defineRoute({
      method: 'get',
      path: '/',
      operationId: 'listBackgroundChecks',
      summary: "The organization's vendor background checks, newest first (filter by the host's candidate id)",
      tags: ['credentials'],
      auth: ['organization'],
      query: z.object({ candidate_id: z.string().min(1).max(128).optional(), limit: z.coerce.number().int().min(1).max(100).default(25) }).strict(),
      response: listOf(backgroundCheckSchema),
      handler: async ({ principal, query }) => {
        const data = await checks.list(orgId(principal), { ...(query.candidate_id ? { candidateId: query.candidate_id } : {}), limit: query.limit });
        return { object: 'list' as const, data: data.map(backgroundCheckView), has_more: data.length === query.limit, url: '/v1/background-checks' };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/:background_check_id',
      operationId: 'getBackgroundCheck',
      summary: 'One background check: the vendor report as last heard, the requirements it decides, monitoring and adverse action',
      tags: ['credentials'],
      auth: ['organization'],
      params: checkParams,
      response: backgroundCheckSchema,
      handler: async ({ principal, params }) => backgroundCheckView(await checks.get(orgId(principal), params.background_check_id)),
    }),
    defineRoute({
      method: 'post',
      path: '/:background_check_id/adverse-action',
      operationId: 'startPreAdverseAction',
      summary:
        'Start FCRA adverse action on a complete report whose result is consider: emails the candidate the pre-adverse notice (report reference, Summary of Rights) and starts the waiting period',
      tags: ['credentials'],
      auth: ['organization'],
      params: checkParams,
      body: startAdverseActionBody,
      response: backgroundCheckSchema,
      errors: [409],
      handler: async ({ principal, params, body }) =>
        backgroundCheckView(await adverse.start(orgId(principal), params.background_check_id, body.waiting_business_days)),
    }),
    defineRoute({
      method: 'post',
      path: '/:background_check_id/adverse-action/final',
      operationId: 'sendFinalAdverseAction',
      summary: 'Send the final adverse action notice, once the waiting period is over (409 waiting_period_running before)',
      tags: ['credentials'],
      auth: ['organization'],
      params: checkParams,
      response: backgroundCheckSchema,
      errors: [409],
      handler: async ({ principal, params }) => backgroundCheckView(await adverse.finish(orgId(principal), params.background_check_id)),
    }),
    defineRoute({
      method: 'post',
      path: '/:background_check_id/adverse-action/cancel',
      operationId: 'cancelAdverseAction',
      summary: 'Cancel a pending adverse action (the candidate disputed, or the organization decided otherwise)',
      tags: ['credentials'],
      auth: ['organization'],
      params: checkParams,
      response: backgroundCheckSchema,
      errors: [409],
      handler: async ({ principal, params }) => backgroundCheckView(await adverse.cancel(orgId(principal), params.background_check_id)),
    }),
    defineRoute({
      method: 'post',
      path: '/vendor-events',
      operationId: VENDOR_WEBHOOK_OPERATION,
      summary:
        "The vendor's result webhook for one organization (configure it in Checkr's dashboard): verified with X-Checkr-Signature (HMAC-SHA256 of the raw body with the connection's API key), applied once per event id",
      tags: ['credentials'],
      auth: [],
      // The organization in the query: the address is configured once in the vendor's dashboard, and whatever organization it names, an unsigned call answers the same 400.
      query: z.object({ organization_id: z.string().min(1).max(100) }).strict(),
      body: vendorEventBody,
      response: vendorEventAnswer,
      handler: async ({ query, req }) => {
        const raw = (req as { rawBody?: Buffer }).rawBody ?? Buffer.alloc(0);
        const result = await checks.receive(query.organization_id, raw, req.get('X-Checkr-Signature') ?? undefined);
        return { received: true as const, ...result };
      },
    }),
  ];
}
