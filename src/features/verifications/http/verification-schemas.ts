/** Verification resources and requests (zod: validation and /v1/openapi.json). */
import { z } from 'zod';
import { isoDateTime } from '../../../platform/http/common-schemas';
import { VERIFICATION_LANGUAGES } from '../domain/verification-messages';

const e164 = z
  .string()
  .regex(/^\+[1-9][0-9]{6,14}$/, 'an E.164 phone number: + and 7 to 15 digits')
  .meta({ example: '+4915112345678' });
const email = z.email().max(254).meta({ example: 'ada@example.com' });
const identity = z
  .string()
  .min(1)
  .max(254)
  .regex(/^\P{Cc}+$/u, 'printable characters')
  .meta({
    description: 'Whom the TOTP factor belongs to, as your users know it (an email, a user name); the label in the authenticator app',
    example: 'ada@example.com',
  });

export const createVerificationBody = z.discriminatedUnion('channel', [
  z.strictObject({
    channel: z.literal('sms'),
    to: e164,
    locale: z
      .string()
      .max(35)
      .optional()
      .meta({ description: `The recipient's language (BCP 47): ${VERIFICATION_LANGUAGES.join(', ')}; English otherwise` }),
  }),
  z.strictObject({
    channel: z.literal('email'),
    to: email,
    locale: z
      .string()
      .max(35)
      .optional()
      .meta({ description: `The recipient's language (BCP 47): ${VERIFICATION_LANGUAGES.join(', ')}; English otherwise` }),
  }),
  z.strictObject({
    channel: z.literal('totp'),
    to: identity,
    issuer: z
      .string()
      .min(1)
      .max(100)
      .regex(/^[^:\p{Cc}]+$/u, 'printable characters, no colon')
      .optional()
      .meta({ description: 'The name the authenticator app shows (default "Hiring")', example: 'Acme Careers' }),
  }),
]);

const sixDigits = z
  .string()
  .regex(/^[0-9]{6}$/, 'six digits')
  .meta({ example: '123456' });

export const checkVerificationBody = z.union([
  z.strictObject({
    channel: z.enum(['sms', 'email']).optional(),
    to: z.union([e164, email]).meta({ description: 'The phone number or email address the code was sent to' }),
    code: sixDigits,
  }),
  z.strictObject({
    channel: z.literal('totp'),
    to: identity,
    code: sixDigits,
  }),
]);

export const verificationSchema = z
  .object({
    id: z.string().meta({ example: 'ver_Jx8fQ2vZr1LkP0aYwE3c' }),
    object: z.literal('verification'),
    channel: z.enum(['sms', 'email', 'totp']),
    status: z
      .enum(['pending', 'approved', 'canceled', 'expired', 'max_attempts_reached', 'failed'])
      .meta({ description: 'canceled: a newer code was sent to the destination; failed: the message could not be sent (see run_id)' }),
    attempts: z.number().int().meta({ description: 'Check attempts made (at most 5)' }),
    run_id: z.string().nullable().meta({ description: 'The action run that sent the code (GET /v1/integrations/runs/{id})' }),
    livemode: z.boolean().meta({ description: 'false when a test-mode sandbox answered: nothing left the machine' }),
    created_at: isoDateTime,
    expires_at: isoDateTime
      .nullable()
      .meta({ description: 'When the code lapses; for totp, when an enrollment nobody confirmed lapses (null once confirmed)' }),
    totp: z
      .object({
        uri: z
          .string()
          .meta({ description: 'otpauth:// URI for the authenticator app', example: 'otpauth://totp/Hiring:ada%40example.com?secret=…&issuer=Hiring' }),
        qr_svg: z.string().meta({ description: 'The URI as a QR code (SVG document)' }),
        secret: z.string().meta({ description: 'The shared secret (base32), for typing in by hand; shown only in this answer' }),
      })
      .optional()
      .meta({ description: 'Only in the answer to a totp enrollment' }),
  })
  .meta({ id: 'Verification' });

export const verificationCheckSchema = z
  .object({
    object: z.literal('verification_check'),
    verification_id: z.string(),
    status: z.enum(['approved', 'pending', 'expired', 'max_attempts_reached']).meta({ description: 'pending: wrong code, attempts remain' }),
    attempts_remaining: z.number().int(),
  })
  .meta({ id: 'VerificationCheck' });
