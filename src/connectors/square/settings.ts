/** The Square connector's settings and credentials: validated by zod, described in OpenAPI and docs/hr-payroll-payouts.md. */
import { z } from 'zod';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export const squareSettings = z
  .object({
    api_base_url: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .default('https://connect.squareup.com')
      .refine((value) => {
        const url = new URL(value);
        // The access token never travels in clear text, except to this machine (a local mock).
        return url.protocol === 'https:' || LOOPBACK.has(url.hostname);
      }, 'expected an https:// URL (http:// only for localhost)')
      .meta({ description: 'Square API base URL: https://connect.squareup.com, or https://connect.squareupsandbox.com for the sandbox' }),
    square_version: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'a Square API version date (YYYY-MM-DD)')
      .default('2025-08-20')
      .meta({ description: 'The Square-Version header sent with every call' }),
  })
  .strict();

export const squareCredentials = z
  .object({
    access_token: z
      .string()
      .regex(/^[A-Za-z0-9_-]{16,512}$/, 'expected a Square access token')
      .meta({ description: 'A personal or OAuth access token with EMPLOYEES_READ, EMPLOYEES_WRITE' }),
  })
  .strict();

export type SquareSettings = z.output<typeof squareSettings>;
export type SquareCredentials = z.output<typeof squareCredentials>;
