/** The Checkr connector's settings and credentials: validated by zod, described in OpenAPI and docs/credentials.md. */
import { z } from 'zod';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export const checkrSettings = z
  .object({
    api_base_url: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .default('https://api.checkr.com')
      .refine((value) => {
        const url = new URL(value);
        // The API key never travels in clear text, except to this machine (a local mock).
        return url.protocol === 'https:' || LOOPBACK.has(url.hostname);
      }, 'expected an https:// URL (http:// only for localhost)')
      .meta({ description: 'Checkr API base URL (https://api.checkr-staging.com for staging); leave the default in production' }),
  })
  .strict();

export const checkrCredentials = z
  .object({
    api_key: z
      .string()
      .regex(/^[A-Za-z0-9_-]{16,128}$/, 'a Checkr secret API key')
      .meta({ description: "The account's secret API key: basic auth for every call, and the key Checkr signs webhooks with" }),
  })
  .strict();

export type CheckrSettings = z.output<typeof checkrSettings>;
export type CheckrCredentials = z.output<typeof checkrCredentials>;
