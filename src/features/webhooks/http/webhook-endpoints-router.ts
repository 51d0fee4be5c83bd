/** Mounted at /v1/webhook_endpoints: endpoints, their secrets, the delivery log, replay and the test event. */
import type { WebhookDelivery, WebhookDeliveryRepository } from '../domain/webhook-delivery';
import type { WebhookEndpoint } from '../domain/webhook-endpoint';
import type { WebhookEndpointService } from '../domain/webhook-endpoint-service';
import { notFound } from '../../../kernel/errors';
import type { Principal } from '../../../platform/http/principal';
import { defineRoute, reply, z, type RouteDefinition } from '../../../platform/http/route';
import { eventSchema } from '../../events/http/event-schemas';
import {
  deletedWebhookEndpointSchema,
  webhookDeliveryListSchema,
  webhookDeliverySchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
} from './webhook-schemas';
import { eventView } from '../../events/http/events-router';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;

const eventType = z.string().regex(/^(\*|[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+)$/, 'an event type such as application.submitted, or *');

export function endpointView(endpoint: WebhookEndpoint): z.output<typeof webhookEndpointSchema> {
  return {
    id: endpoint.id,
    object: 'webhook_endpoint',
    url: endpoint.url,
    description: endpoint.description,
    event_types: endpoint.eventTypes,
    enabled: endpoint.enabled,
    disabled_reason: endpoint.disabledReason,
    previous_secret_expires_at: endpoint.previousSecretExpiresAt?.toISOString() ?? null,
    last_success_at: endpoint.lastSuccessAt?.toISOString() ?? null,
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
  };
}

export function deliveryView(delivery: WebhookDelivery): z.output<typeof webhookDeliverySchema> {
  return {
    id: delivery.id,
    object: 'webhook_delivery',
    webhook_endpoint_id: delivery.endpointId,
    event_id: delivery.eventId,
    event_type: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    last_status_code: delivery.lastStatusCode,
    last_error: delivery.lastError,
    next_attempt_at: delivery.status === 'pending' ? (delivery.nextAttemptAt?.toISOString() ?? null) : null,
    created_at: delivery.createdAt.toISOString(),
    completed_at: delivery.completedAt?.toISOString() ?? null,
  };
}

const idParams = z.object({ webhook_endpoint_id: z.string().max(100) });
const listQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(10), starting_after: z.string().max(100).optional() }).strict();

const createBody = z
  .object({
    url: z.string().min(1).max(2048),
    description: z.string().max(500).nullable().optional(),
    event_types: z.array(eventType).max(100).optional(),
    enabled: z.boolean().optional(),
  })
  .strict();

const updateBody = z
  .object({
    url: z.string().min(1).max(2048).optional(),
    description: z.string().max(500).nullable().optional(),
    event_types: z.array(eventType).min(1).max(100).optional(),
    enabled: z.boolean().optional(),
  })
  .strict();

export function webhookEndpointRoutes(
  endpoints: WebhookEndpointService,
  deliveries: WebhookDeliveryRepository,
  clock: () => Date,
): RouteDefinition<any, any, any>[] {
  const deliveryOf = async (organizationId: string, endpointId: string, deliveryId: string) => {
    await endpoints.get(organizationId, endpointId);
    const delivery = await deliveries.find(organizationId, deliveryId);
    if (!delivery || delivery.endpointId !== endpointId) throw notFound('webhook delivery', deliveryId);
    return delivery;
  };
  return [
    defineRoute({
      method: 'post',
      path: '/',
      operationId: 'createWebhookEndpoint',
      summary: 'Create a webhook endpoint; the answer carries its signing secret (whsec_…), shown only this once',
      tags: ['webhooks'],
      auth: ['organization'],
      // No Idempotency-Key replay: it would keep the answer, and so the secret, in plaintext for a day.
      body: createBody,
      status: 201,
      response: webhookEndpointWithSecretSchema,
      handler: async ({ principal, body }) => {
        const { endpoint, secret } = await endpoints.create(orgId(principal), {
          url: body.url,
          description: body.description,
          eventTypes: body.event_types,
          enabled: body.enabled,
        });
        return reply(201, { ...endpointView(endpoint), secret } satisfies z.output<typeof webhookEndpointWithSecretSchema>);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/',
      operationId: 'listWebhookEndpoints',
      summary: "The organization's webhook endpoints, newest first (cursor pagination: limit, starting_after)",
      tags: ['webhooks'],
      auth: ['organization'],
      query: listQuery,
      response: webhookEndpointListSchema,
      handler: async ({ principal, query }) => {
        const page = await endpoints.list(orgId(principal), { limit: query.limit, startingAfter: query.starting_after });
        return { object: 'list', data: page.data.map(endpointView), has_more: page.hasMore, url: '/v1/webhook_endpoints' } satisfies z.output<
          typeof webhookEndpointListSchema
        >;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/:webhook_endpoint_id',
      operationId: 'getWebhookEndpoint',
      summary: 'One webhook endpoint (never its secret)',
      tags: ['webhooks'],
      auth: ['organization'],
      params: idParams,
      response: webhookEndpointSchema,
      handler: async ({ principal, params }) => endpointView(await endpoints.get(orgId(principal), params.webhook_endpoint_id)),
    }),
    defineRoute({
      method: 'patch',
      path: '/:webhook_endpoint_id',
      operationId: 'updateWebhookEndpoint',
      summary: 'Change the URL, description, event types, or enable/disable the endpoint',
      tags: ['webhooks'],
      auth: ['organization'],
      params: idParams,
      body: updateBody,
      response: webhookEndpointSchema,
      handler: async ({ principal, params, body }) =>
        endpointView(
          await endpoints.update(orgId(principal), params.webhook_endpoint_id, {
            url: body.url,
            description: body.description,
            eventTypes: body.event_types,
            enabled: body.enabled,
          }),
        ),
    }),
    defineRoute({
      method: 'delete',
      path: '/:webhook_endpoint_id',
      operationId: 'deleteWebhookEndpoint',
      summary: 'Delete the endpoint and its delivery log; pending deliveries stop',
      tags: ['webhooks'],
      auth: ['organization'],
      params: idParams,
      response: deletedWebhookEndpointSchema,
      handler: async ({ principal, params }) => {
        await endpoints.delete(orgId(principal), params.webhook_endpoint_id);
        return { id: params.webhook_endpoint_id, object: 'webhook_endpoint', deleted: true } satisfies z.output<typeof deletedWebhookEndpointSchema>;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/:webhook_endpoint_id/rotate_secret',
      operationId: 'rotateWebhookEndpointSecret',
      summary: 'A new signing secret (shown once); the old one also signs every delivery for expires_in_seconds (default WEBHOOK_SECRET_OVERLAP_SECONDS)',
      tags: ['webhooks'],
      auth: ['organization'],
      params: idParams,
      body: z
        .object({
          expires_in_seconds: z
            .number()
            .int()
            .min(0)
            .max(7 * 86_400)
            .optional(),
        })
        .strict(),
      response: webhookEndpointWithSecretSchema,
      handler: async ({ principal, params, body }) => {
        const { endpoint, secret } = await endpoints.rotateSecret(orgId(principal), params.webhook_endpoint_id, body.expires_in_seconds);
        return { ...endpointView(endpoint), secret } satisfies z.output<typeof webhookEndpointWithSecretSchema>;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/:webhook_endpoint_id/test',
      operationId: 'sendWebhookTestEvent',
      summary: 'Records a webhook_endpoint.test event and delivers it to this endpoint only',
      tags: ['webhooks'],
      auth: ['organization'],
      params: idParams,
      status: 202,
      response: eventSchema,
      handler: async ({ principal, params }) => reply(202, eventView(await endpoints.sendTest(orgId(principal), params.webhook_endpoint_id))),
    }),
    defineRoute({
      method: 'get',
      path: '/:webhook_endpoint_id/deliveries',
      operationId: 'listWebhookDeliveries',
      summary: "The endpoint's deliveries, newest first: status, attempts, last status code and error, next attempt",
      tags: ['webhooks'],
      auth: ['organization'],
      params: idParams,
      query: listQuery.extend({ status: z.enum(['pending', 'succeeded', 'failed', 'canceled']).optional() }).strict(),
      response: webhookDeliveryListSchema,
      handler: async ({ principal, params, query }) => {
        await endpoints.get(orgId(principal), params.webhook_endpoint_id);
        const page = await deliveries.listForEndpoint(orgId(principal), params.webhook_endpoint_id, {
          limit: query.limit,
          startingAfter: query.starting_after,
          status: query.status,
        });
        return {
          object: 'list',
          data: page.data.map(deliveryView),
          has_more: page.hasMore,
          url: `/v1/webhook_endpoints/${params.webhook_endpoint_id}/deliveries`,
        } satisfies z.output<typeof webhookDeliveryListSchema>;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/:webhook_endpoint_id/deliveries/:delivery_id',
      operationId: 'getWebhookDelivery',
      summary: 'One delivery of the endpoint',
      tags: ['webhooks'],
      auth: ['organization'],
      params: z.object({ webhook_endpoint_id: z.string().max(100), delivery_id: z.string().max(100) }),
      response: webhookDeliverySchema,
      handler: async ({ principal, params }) => deliveryView(await deliveryOf(orgId(principal), params.webhook_endpoint_id, params.delivery_id)),
    }),
    defineRoute({
      method: 'post',
      path: '/:webhook_endpoint_id/deliveries/:delivery_id/retry',
      operationId: 'retryWebhookDelivery',
      summary: 'Sends the delivery again now (same webhook-id), with a new retry window',
      tags: ['webhooks'],
      auth: ['organization'],
      params: z.object({ webhook_endpoint_id: z.string().max(100), delivery_id: z.string().max(100) }),
      status: 202,
      response: webhookDeliverySchema,
      handler: async ({ principal, params }) => {
        await deliveryOf(orgId(principal), params.webhook_endpoint_id, params.delivery_id);
        const requeued = await deliveries.requeue(params.delivery_id, clock());
        return reply(202, deliveryView(requeued!));
      },
    }),
  ];
}
