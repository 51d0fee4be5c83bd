/**
 * Mounted at /v1/payouts: workers (KYC onboarding and state), instant payouts, and the
 * payouts provider's webhook endpoint per organization and connection (public: the provider's
 * signature over the exact bytes received is the authentication).
 */
import type { RawBodyCarrier } from '../../../platform/http/body';
import type { Principal } from '../../../platform/http/principal';
import { defineRoute, reply, z, type RouteDefinition } from '../../../platform/http/route';
import type { InstantPayouts } from '../domain/instant-payouts';
import type { Payout } from '../domain/payout';
import type { PayoutWebhooks } from '../domain/payout-webhooks';
import type { PayoutWorkerRecord } from '../domain/payout-worker';
import type { OnboardingLink, PayoutWorkers } from '../domain/payout-workers';
import {
  createPayoutBody,
  createWorkerBody,
  onboardingLinkBody,
  onboardingSchema,
  payoutSchema,
  payoutWorkerListSchema,
  payoutWorkerSchema,
  webhookAnswerSchema,
} from './payout-schemas';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;
const id = z.string().max(100);

export const workerView = (w: PayoutWorkerRecord): z.output<typeof payoutWorkerSchema> => ({
  id: w.id,
  object: 'payout_worker',
  reference: w.reference,
  account_id: w.accountId,
  kyc_status: w.kycStatus,
  payouts_enabled: w.payoutsEnabled,
  requirements_due: w.requirementsDue,
  disabled_reason: w.disabledReason,
  onboarding_run_id: w.onboardingRunId,
  livemode: w.livemode,
  kyc_updated_at: w.kycUpdatedAt?.toISOString() ?? null,
  created_at: w.createdAt.toISOString(),
});

const onboardingView = (worker: PayoutWorkerRecord, o: OnboardingLink): z.output<typeof onboardingSchema> => ({
  worker: workerView(worker),
  onboarding: { url: o.url, expires_at: o.expiresAt.toISOString(), run_id: o.runId, sent_by: o.sentBy, message_run_id: o.messageRunId },
});

export const payoutView = (p: Payout): z.output<typeof payoutSchema> => ({
  id: p.id,
  object: 'payout',
  worker_id: p.workerId,
  reference: p.reference,
  source: p.source,
  amount: p.amount,
  fee: p.fee,
  net: p.amount - p.fee,
  currency: p.currency,
  status: p.status,
  transfer_id: p.transferId,
  transfer_run_id: p.transferRunId,
  provider_payout_id: p.providerPayoutId,
  payout_run_id: p.payoutRunId,
  failure_code: p.failureCode,
  failure_message: p.failureMessage,
  livemode: p.livemode,
  created_at: p.createdAt.toISOString(),
});

export function payoutRoutes(workers: PayoutWorkers, payouts: InstantPayouts, webhooks: PayoutWebhooks): RouteDefinition<any, any, any>[] {
  return [
    defineRoute({
      method: 'post',
      path: '/workers',
      operationId: 'createPayoutWorker',
      summary:
        'A worker to be paid (payouts.kyc_verification): creates their connected account at the payouts provider (once per reference) and answers a hosted onboarding (KYC) link, also sent by email or SMS when asked',
      tags: ['payouts'],
      auth: ['organization'],
      body: createWorkerBody,
      status: 201,
      response: onboardingSchema,
      alsoAnswers: [200],
      // connection_missing, counterpart_rejected, connection_auth_failed, phone_required; 503 while the provider is away.
      errors: [409, 503],
      handler: async ({ principal, body }) => {
        const { worker, created, onboarding } = await workers.enroll(orgId(principal), body);
        return reply(created ? 201 : 200, onboardingView(worker, onboarding));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/workers',
      operationId: 'listPayoutWorkers',
      summary: "The organization's payout workers with their KYC state (cursor: limit, starting_after)",
      tags: ['payouts'],
      auth: ['organization'],
      query: z.strictObject({ limit: z.coerce.number().int().min(1).max(100).default(20), starting_after: id.optional() }),
      response: payoutWorkerListSchema,
      handler: async ({ principal, query }) => {
        const rows = await workers.list(orgId(principal), { limit: query.limit + 1, ...(query.starting_after ? { startingAfter: query.starting_after } : {}) });
        return { object: 'list' as const, data: rows.slice(0, query.limit).map(workerView), has_more: rows.length > query.limit, url: '/v1/payouts/workers' };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/workers/:worker_id',
      operationId: 'getPayoutWorker',
      summary: "One worker's KYC state, as the provider last reported it (account.updated)",
      tags: ['payouts'],
      auth: ['organization'],
      params: z.object({ worker_id: id }),
      response: payoutWorkerSchema,
      handler: async ({ principal, params }) => workerView(await workers.get(orgId(principal), params.worker_id)),
    }),
    defineRoute({
      method: 'post',
      path: '/workers/:worker_id/onboarding_link',
      operationId: 'createPayoutOnboardingLink',
      summary: 'A fresh hosted onboarding link for the worker (links are single use and expire); never a second account',
      tags: ['payouts'],
      auth: ['organization'],
      params: z.object({ worker_id: id }),
      body: onboardingLinkBody,
      status: 201,
      response: onboardingSchema,
      errors: [409, 503],
      handler: async ({ principal, params, body }) => {
        const { worker, onboarding } = await workers.newOnboardingLink(orgId(principal), params.worker_id, body.send);
        return reply(201, onboardingView(worker, onboarding));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/instant',
      operationId: 'createInstantPayout',
      summary:
        'Pays a worker whose KYC is complete (payouts.instant_pay): a transfer to their account, then an instant payout; one payout per reference, so a retried request never pays twice',
      tags: ['payouts'],
      auth: ['organization'],
      body: createPayoutBody,
      status: 201,
      response: payoutSchema,
      // worker_kyc_incomplete, payout_reference_conflict; 503 while the provider is away (repeat the request).
      errors: [409, 503],
      handler: async ({ principal, body }) => {
        const payout = await payouts.request(orgId(principal), {
          workerId: body.worker_id,
          amount: body.amount,
          currency: body.currency,
          reference: body.reference,
          source: 'api',
          feeBasisPoints: body.fee_basis_points,
        });
        return reply(201, payoutView(payout));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/instant/:payout_id',
      operationId: 'getInstantPayout',
      summary: 'One payout and where it stands',
      tags: ['payouts'],
      auth: ['organization'],
      params: z.object({ payout_id: id }),
      response: payoutSchema,
      handler: async ({ principal, params }) => payoutView(await payouts.get(orgId(principal), params.payout_id)),
    }),
    defineRoute({
      method: 'post',
      path: '/webhooks/:organization_id/:connection_id',
      operationId: 'receivePayoutsWebhook',
      summary:
        "The payouts provider's webhook endpoint for one connection (Stripe Connect: account.updated, payout.paid, payout.failed), verified with the connection's webhook_secret; other events are acknowledged",
      tags: ['payouts'],
      auth: [],
      params: z.object({ organization_id: id, connection_id: id }),
      // Documentation of the envelope only: the signature over the raw bytes decides, after the connection is found.
      body: z.looseObject({ id: z.string().max(255).optional(), type: z.string().max(255).optional() }),
      response: webhookAnswerSchema,
      // webhook_signature_invalid (400); webhook_secret_missing (409).
      errors: [409],
      handler: async ({ params, req }) => {
        const raw = (req as unknown as RawBodyCarrier).rawBody ?? Buffer.alloc(0);
        const outcome = await webhooks.receive(params.organization_id, params.connection_id, raw, req.get('Stripe-Signature'));
        return { received: true as const, ...outcome };
      },
    }),
  ];
}
