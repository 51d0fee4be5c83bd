import { z } from 'zod';
import { isoDateTime, listOf, nullableDateTime } from '../../../platform/http/common-schemas';

export const webhookEndpointSchema = z
  .object({
    id: z.string().meta({ example: 'we_hPvd1Aqvp9ZQDsyR9DWR' }),
    object: z.literal('webhook_endpoint'),
    url: z.string().meta({ example: 'https://ats.example.com/hooks/hiring' }),
    description: z.string().nullable(),
    event_types: z.array(z.string()).meta({ description: '["*"] means every event type', example: ['application.submitted'] }),
    enabled: z.boolean(),
    disabled_reason: z.string().nullable().meta({ description: 'Why the plugin disabled the endpoint, e.g. after failing for the whole retry window' }),
    previous_secret_expires_at: nullableDateTime.meta({ description: 'Until then the previous secret also signs every delivery' }),
    last_success_at: nullableDateTime,
    created_at: isoDateTime,
    updated_at: isoDateTime,
  })
  .meta({ id: 'WebhookEndpoint' });

/** Create and rotate_secret answer the signing secret, once. */
export const webhookEndpointWithSecretSchema = webhookEndpointSchema
  .extend({ secret: z.string().meta({ description: 'The Standard Webhooks signing secret, shown only this once', example: 'whsec_…' }) })
  .meta({ id: 'WebhookEndpointWithSecret' });

export const deletedWebhookEndpointSchema = z
  .object({ id: z.string(), object: z.literal('webhook_endpoint'), deleted: z.literal(true) })
  .meta({ id: 'DeletedWebhookEndpoint' });

export const webhookEndpointListSchema = listOf(webhookEndpointSchema);

export const webhookDeliverySchema = z
  .object({
    id: z.string().meta({ example: 'whd_ED2cO82fr63DTILjj1yw' }),
    object: z.literal('webhook_delivery'),
    webhook_endpoint_id: z.string(),
    event_id: z.string(),
    event_type: z.string(),
    status: z.enum(['pending', 'succeeded', 'failed', 'canceled']),
    attempts: z.number().int(),
    last_status_code: z.number().int().nullable().meta({ description: "The receiver's last HTTP status; null before an answer" }),
    last_error: z.string().nullable(),
    next_attempt_at: nullableDateTime.meta({ description: 'Only while pending' }),
    created_at: isoDateTime,
    completed_at: nullableDateTime,
  })
  .meta({ id: 'WebhookDelivery' });

export const webhookDeliveryListSchema = listOf(webhookDeliverySchema);
