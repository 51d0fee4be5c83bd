/** The SMTP connector's settings and credentials: validated by zod, described in OpenAPI and docs/connections.md. */
import { z } from 'zod';

export const smtpSettings = z
  .object({
    host: z.string().min(1).max(253).meta({ example: 'smtp.example.com' }),
    port: z.number().int().min(1).max(65_535).meta({ example: 587 }),
    security: z
      .enum(['starttls', 'tls', 'none'])
      .default('starttls')
      .meta({ description: 'starttls: upgrade required (587); tls: implicit TLS (465); none: plain text (local relays only)' }),
    from_email: z.email().max(254),
    from_name: z.string().max(100).optional(),
    tls_ca: z.string().max(20_000).optional().meta({ description: 'PEM certificate(s) to trust besides the system store (a private relay)' }),
    pool: z.boolean().default(true).meta({ description: 'Keep connections open between messages' }),
    dkim_domain: z
      .string()
      .regex(/^(?=.{1,253}$)([A-Za-z0-9-]{1,63}\.)+[A-Za-z]{2,63}$/, 'expected a domain name')
      .optional()
      .meta({ description: 'Sign messages with DKIM for this domain (d=); the private key goes in the credentials as dkim_private_key' }),
    dkim_selector: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,63}(\.[A-Za-z0-9_-]{1,63})*$/, 'expected a DKIM selector')
      .optional()
      .meta({ description: 'DKIM selector (s=): the public key is published at <selector>._domainkey.<dkim_domain>' }),
  })
  .strict()
  .refine((s) => (s.dkim_domain === undefined) === (s.dkim_selector === undefined), {
    message: 'dkim_domain and dkim_selector go together',
    path: ['dkim_selector'],
  });

/** The DKIM signing key (PEM, RSA or Ed25519), encrypted with the other credentials. */
const dkimKey = {
  dkim_private_key: z
    .string()
    .min(1)
    .max(20_000)
    .regex(/-----BEGIN (RSA |EC )?PRIVATE KEY-----/, 'expected a PEM private key')
    .optional()
    .meta({ description: 'PEM private key that signs with DKIM (dkim_domain and dkim_selector in the settings)' }),
};

export const smtpCredentials = z
  .object({
    username: z.string().min(1).max(320),
    password: z.string().min(1).max(1024),
    ...dkimKey,
  })
  .strict()
  .or(
    z
      .object({ ...dkimKey })
      .strict()
      .meta({ description: 'No AUTH (a relay that trusts the sender by address)' }),
  );

export type SmtpSettings = z.output<typeof smtpSettings>;
export type SmtpCredentials = z.output<typeof smtpCredentials>;
