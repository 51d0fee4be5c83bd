/** The Twilio connector's settings and credentials: validated by zod, described in OpenAPI and docs/connections.md. */
import { z } from 'zod';

const e164 = z.string().regex(/^\+[1-9]\d{6,14}$/, 'an E.164 number such as +14155552671');

export const twilioSettings = z
  .object({
    account_sid: z
      .string()
      .regex(/^AC[0-9a-fA-F]{32}$/, 'a Twilio Account SID (AC followed by 32 hex digits)')
      .meta({ example: 'ACaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' }),
    from: e164.optional().meta({ description: 'The sending number (E.164); or give messaging_service_sid' }),
    messaging_service_sid: z
      .string()
      .regex(/^MG[0-9a-fA-F]{32}$/)
      .optional()
      .meta({ description: 'Send through a Messaging Service (its sender pool) instead of one number' }),
    status_callback_url: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .optional()
      .meta({ description: "Where Twilio posts delivery status callbacks ; default: this plugin's /v1/sms/twilio/{organization_id}/{connection_id}/status" }),
    api_base_url: z
      .url({ protocol: /^https?$/ })
      .max(500)
      .default('https://api.twilio.com')
      .meta({ description: 'A Twilio-compatible Messages API (default Twilio itself)' }),
  })
  .strict()
  .refine((s) => Boolean(s.from) !== Boolean(s.messaging_service_sid), { message: 'give exactly one of from and messaging_service_sid', path: ['from'] });

export const twilioCredentials = z
  .object({
    auth_token: z.string().min(16).max(128).meta({ description: "The account's Auth Token (also the key that signs callbacks)" }),
  })
  .strict();

export type TwilioSettings = z.output<typeof twilioSettings>;
export type TwilioCredentials = z.output<typeof twilioCredentials>;
