/** The room-URL template connector's settings and credentials. */
import { z } from 'zod';

export const meetingUrlTemplateSettings = z
  .object({
    template: z
      .url({ protocol: /^https?$/ })
      .max(500)
      .refine((t) => t.includes('%7Broom%7D') || t.includes('{room}'), 'must contain {room}')
      .meta({ description: 'The meeting URL with `{room}` where the room name goes', example: 'https://whereby.com/acme-{room}' }),
    room_prefix: z
      .string()
      .regex(/^[a-z0-9-]{0,40}$/, 'lowercase letters, digits and -')
      .default('')
      .meta({ description: 'Prefix of the room names (lowercase)' }),
  })
  .strict();

export const meetingUrlTemplateCredentials = z
  .object({
    room_secret: z.string().min(16).max(512).meta({ description: 'A secret of your choice that makes room names unguessable (HMAC key)' }),
  })
  .strict();

export type MeetingUrlTemplateSettings = z.output<typeof meetingUrlTemplateSettings>;
export type MeetingUrlTemplateCredentials = z.output<typeof meetingUrlTemplateCredentials>;
