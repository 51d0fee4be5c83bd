/** The SMPP connector's settings and credentials: validated by zod, described in OpenAPI and docs/connections.md. */
import { z } from 'zod';

export const smppSettings = z
  .object({
    host: z.string().min(1).max(253).meta({ example: 'smsc.example.net' }),
    port: z.number().int().min(1).max(65_535).default(2775),
    tls: z.boolean().default(false).meta({ description: 'SMPP over TLS (often port 3550)' }),
    system_type: z.string().max(12).optional(),
    source_addr: z.string().min(1).max(20).meta({ description: 'The sender: an E.164 number (+…) or an alphanumeric sender id', example: '+4930123456' }),
    enquire_link_seconds: z.number().int().min(5).max(600).default(30).meta({ description: 'enquire_link keepalive period' }),
  })
  .strict();

export const smppCredentials = z
  .object({
    // SMPP 3.4 §5.2.1/§5.2.2: system_id up to 15 octets, password up to 8.
    system_id: z.string().min(1).max(15),
    password: z.string().max(8),
  })
  .strict();

export type SmppSettings = z.output<typeof smppSettings>;
export type SmppCredentials = z.output<typeof smppCredentials>;
