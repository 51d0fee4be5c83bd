/** The Stripe Connect connector's settings and credentials: validated by zod, described in OpenAPI and docs/hr-payroll-payouts.md. */
import { z } from 'zod';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export const stripeConnectSettings = z
  .object({
    api_base_url: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .default('https://api.stripe.com')
      .refine((value) => {
        const url = new URL(value);
        // The secret key never travels in clear text, except to this machine (a local mock).
        return url.protocol === 'https:' || LOOPBACK.has(url.hostname);
      }, 'expected an https:// URL (http:// only for localhost)')
      .meta({ description: 'Stripe API base URL; leave the default outside tests' }),
    onboarding_refresh_url: z
      .url({ protocol: /^https$/ })
      .max(2000)
      .meta({ example: 'https://jobs.example.com/payouts/onboarding/expired', description: 'Where Stripe sends a worker whose onboarding link expired' }),
    onboarding_return_url: z
      .url({ protocol: /^https$/ })
      .max(2000)
      .meta({ example: 'https://jobs.example.com/payouts/onboarding/done', description: 'Where Stripe sends a worker who left hosted onboarding' }),
  })
  .strict();

export const stripeConnectCredentials = z
  .object({
    secret_key: z
      .string()
      .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9]{1,250}$/, 'expected a Stripe secret or restricted key (sk_test_…, sk_live_…, rk_…)')
      .meta({ description: 'The platform secret key (or a restricted key with Connect write access)' }),
    webhook_secret: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/=]{1,250}$/, 'expected a webhook signing secret (whsec_…)')
      .optional()
      .meta({ description: 'The signing secret of the Connect webhook endpoint that receives account.updated' }),
  })
  .strict();

export type StripeConnectSettings = z.output<typeof stripeConnectSettings>;
export type StripeConnectCredentials = z.output<typeof stripeConnectCredentials>;
