/** Verification resources and requests (zod: validation and /v1/openapi.json). */
import { z } from 'zod';
import { isoDateTime } from '../../../platform/http/common-schemas';
import { VERIFICATION_LANGUAGES } from '../domain/verification-messages';

const e164 = z
  .string()
  .regex(/^\+[1-9][0-9]{6,14}$/, 'an E.164 phone number: + and 7 to 15 digits')
  .meta({ example: '+4915112345678' });
const email = z.email().max(254).meta({ example: 'ada@example.com' });

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
]);

export const checkVerificationBody = z.strictObject({
  to: z.union([e164, email]).meta({ description: 'The phone number or email address the code was sent to' }),
  code: z
    .string()
    .regex(/^[0-9]{6}$/, 'six digits')
    .meta({ example: '123456' }),
});

export const verificationSchema = z
  .object({
    id: z.string().meta({ example: 'ver_Jx8fQ2vZr1LkP0aYwE3c' }),
    object: z.literal('verification'),
    channel: z.enum(['sms', 'email']),
    status: z
      .enum(['pending', 'approved', 'canceled', 'expired', 'max_attempts_reached', 'failed'])
      .meta({ description: 'canceled: a newer code was sent to the destination; failed: the message could not be sent (see run_id)' }),
    attempts: z.number().int().meta({ description: 'Check attempts made (at most 5)' }),
    run_id: z.string().nullable().meta({ description: 'The action run that sent the code (GET /v1/integrations/runs/{id})' }),
    livemode: z.boolean().meta({ description: 'false when a test-mode sandbox answered: nothing left the machine' }),
    created_at: isoDateTime,
    expires_at: isoDateTime,
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
