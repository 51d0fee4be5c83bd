import { z } from 'zod';

export const healthSchema = z.object({ status: z.literal('ok') });

export const readinessSchema = z
  .object({
    status: z.enum(['ready', 'not_ready']),
    checks: z.record(z.string(), z.string()).meta({ description: 'Per dependency (database, redis): "ok" or why not' }),
  })
  .meta({ id: 'Readiness' });

export const openApiDocumentSchema = z.object({ openapi: z.string() }).catchall(z.unknown());
