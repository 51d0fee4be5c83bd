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
  })
  .strict();

export const smtpCredentials = z
  .object({
    username: z.string().min(1).max(320),
    password: z.string().min(1).max(1024),
  })
  .strict()
  .or(z.object({}).strict().meta({ description: 'No AUTH (a relay that trusts the sender by address)' }));

export type SmtpSettings = z.output<typeof smtpSettings>;
export type SmtpCredentials = z.output<typeof smtpCredentials>;
