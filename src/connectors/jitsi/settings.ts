/** The Jitsi Meet connector's settings and credentials (zod: validation, OpenAPI, docs/scheduling.md). */
import { z } from 'zod';

export const jitsiSettings = z
  .object({
    base_url: z
      .url({ protocol: /^https?$/ })
      .max(500)
      .meta({ description: 'Your Jitsi Meet deployment, with its tenant path if any', example: 'https://meet.example.com' }),
    app_id: z.string().min(1).max(200).meta({ description: 'The `app_id` configured for token authentication (the JWT `iss`)', example: 'hiring' }),
    audience: z.string().min(1).max(200).default('jitsi').meta({ description: 'The JWT `aud` Prosody accepts' }),
    subject: z.string().min(1).max(253).optional().meta({ description: 'The JWT `sub`: the XMPP domain or tenant; default the host of base_url' }),
    room_prefix: z
      .string()
      .regex(/^[a-z0-9-]{0,40}$/, 'lowercase letters, digits and -')
      .default('')
      .meta({ description: 'Prefix of the room names (lowercase)' }),
    valid_after_end_minutes: z
      .number()
      .int()
      .min(0)
      .max(24 * 60)
      .default(60)
      .meta({ description: 'How long after the meeting ends its links keep working' }),
  })
  .strict();

export const jitsiCredentials = z
  .object({ app_secret: z.string().min(32).max(512).meta({ description: 'The `app_secret` shared with Prosody (HS256), at least 32 characters' }) })
  .strict();

export type JitsiSettings = z.output<typeof jitsiSettings>;
export type JitsiCredentials = z.output<typeof jitsiCredentials>;
