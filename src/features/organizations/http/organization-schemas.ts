import { z } from 'zod';
import { isoDateTime, nullableDateTime } from '../../../platform/http/common-schemas';

export const apiKeySummarySchema = z.object({
  prefix: z.string().meta({ example: 'hik_…' }),
  created_at: isoDateTime,
  expires_at: nullableDateTime,
  revoked_at: nullableDateTime,
});

export const organizationSchema = z
  .object({
    id: z.string().meta({ example: 'org_5fGh7JkL9mNp2QrS4tUv' }),
    object: z.literal('organization'),
    name: z.string(),
    created_at: isoDateTime,
    api_keys: z.array(apiKeySummarySchema),
  })
  .meta({ id: 'Organization' });

export const createdOrganizationSchema = z
  .object({
    id: z.string(),
    object: z.literal('organization'),
    name: z.string(),
    created_at: isoDateTime,
    api_key: z
      .string()
      .nullable()
      .meta({ description: 'Shown once; only its digest is stored, so an answer replayed for the same Idempotency-Key carries null', example: 'hik_…' }),
  })
  .meta({
    id: 'CreatedOrganization',
    example: { id: 'org_5fGh7JkL9mNp2QrS4tUv', object: 'organization', name: 'Acme Hiring', created_at: '2026-11-24T09:30:00.000Z', api_key: 'hik_…' },
  });

export const issuedApiKeySchema = z
  .object({
    object: z.literal('api_key'),
    api_key: z.string().meta({ description: 'Shown once' }),
    prefix: z.string(),
    previous_keys_expire_at: isoDateTime.optional(),
  })
  .meta({ id: 'IssuedApiKey' });

export const organizationSettingsSchema = z
  .object({
    object: z.literal('organization_settings'),
    organization_id: z.string(),
    profile_apply: z.object({
      enabled: z.boolean(),
      allowed_origins: z.array(z.string()).meta({ example: ['https://jobs.example.com'] }),
      return_urls: z
        .array(z.string())
        .meta({ description: 'Listing pages redirect mode may return to (exact URLs)', example: ['https://jobs.example.com/careers/backend-engineer'] }),
      button_text: z.string().meta({ example: 'Apply with profile' }),
      theme: z.enum(['light', 'dark', 'auto']),
    }),
    updated_at: nullableDateTime,
  })
  .meta({ id: 'OrganizationSettings' });
