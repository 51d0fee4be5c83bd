/** The SCIM connector's settings and credentials: validated by zod, described in OpenAPI and docs/hr-payroll-payouts.md. */
import { z } from 'zod';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export const scimSettings = z
  .object({
    base_url: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .refine((value) => {
        const url = new URL(value);
        // A bearer token never travels in clear text, except to this machine (a directory bridge on localhost).
        return url.protocol === 'https:' || LOOPBACK.has(url.hostname);
      }, 'expected an https:// URL (http:// only for localhost)')
      .meta({ example: 'https://hr.example.com/scim/v2', description: 'The SCIM 2.0 base URL (the one /Users and /ServiceProviderConfig hang off)' }),
  })
  .strict();

export const scimCredentials = z
  .object({
    token: z.string().min(1).max(4096).meta({ description: 'The bearer token the directory issued for provisioning' }),
  })
  .strict();

export type ScimSettings = z.output<typeof scimSettings>;
export type ScimCredentials = z.output<typeof scimCredentials>;
