/**
 * Response shapes shared by every router. The views that build responses are typed as
 * the output of these schemas, so the compiler keeps handlers and the OpenAPI document
 * in step, and the conformance test checks live responses against the document.
 */
import { z } from 'zod';

export const isoDateTime = z.string().meta({ format: 'date-time', example: '2026-11-24T09:30:00.000Z' });
export const nullableDateTime = isoDateTime.nullable();

export const moneySchema = z.object({
  amount: z.number().int().meta({ description: 'Integer minor units (US cents)', example: 4900 }),
  currency: z.string().meta({ example: 'USD' }),
});

/** `{object:"list", data, has_more}`; cursor lists also carry `url`. */
export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ object: z.literal('list'), data: z.array(item), has_more: z.boolean(), url: z.string().optional() });

/** The one error body of every JSON endpoint. */
export const errorSchema = z
  .object({
    error: z.object({
      code: z.string().meta({ description: 'Stable, machine-readable code (see docs/api.md, Errors)', example: 'parameter_missing' }),
      message: z.string().meta({ example: 'Missing required parameter: name' }),
      param: z.string().optional().meta({ description: 'The offending parameter, as a dotted path', example: 'name' }),
      application_id: z.string().optional().meta({ description: 'duplicate_application: the existing application' }),
      action_key: z.string().optional().meta({ description: 'license_required: the action whose license is missing' }),
      listing_id: z.string().optional().meta({ description: 'listing_exists: the listing that already has this external_id' }),
      actions: z
        .array(z.string())
        .optional()
        .meta({ description: 'action_not_available, package_not_available: the actions this installation cannot perform' }),
      request_id: z.string().meta({ example: 'req_4f9a2b7c8d1e0f3a5b6c' }),
    }),
  })
  .meta({ id: 'Error' });
