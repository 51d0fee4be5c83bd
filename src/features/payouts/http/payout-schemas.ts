/** Payout workers, payouts and their requests (zod: validation and /v1/openapi.json). */
import { z } from 'zod';
import { isoDateTime, listOf, nullableDateTime } from '../../../platform/http/common-schemas';
import { MAX_FEE_BASIS_POINTS } from '../domain/payout-amounts';

const reference = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9._:-]+$/, 'letters, digits and . _ : -');
const channel = z
  .enum(['email', 'sms', 'none'])
  .default('none')
  .meta({ description: 'Also send the onboarding link to the worker: by email, by SMS (needs phone), or not (it is in the answer either way)' });

export const createWorkerBody = z.strictObject({
  reference: reference.meta({ description: 'Your id for the worker (candidate or contractor id); one worker per reference', example: 'cand_8812' }),
  email: z.email().max(254).meta({ example: 'ada@example.com' }),
  phone: z
    .string()
    .regex(/^\+[1-9][0-9]{6,14}$/, 'an E.164 phone number: + and 7 to 15 digits')
    .optional()
    .meta({ example: '+15555550123' }),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 country code')
    .meta({ description: "Country of the worker's bank account", example: 'US' }),
  send: channel,
});

export const onboardingLinkBody = z.strictObject({ send: channel });

export const payoutWorkerSchema = z
  .object({
    id: z.string().meta({ example: 'wkr_Jx8fQ2vZr1LkP0aYwE3c' }),
    object: z.literal('payout_worker'),
    reference: z.string(),
    account_id: z.string().nullable().meta({ description: "The provider's account for the worker (Stripe: acct_…)" }),
    kyc_status: z.enum(['pending', 'onboarding', 'requirements_due', 'completed', 'disabled']).meta({
      description:
        'pending: no account yet; onboarding: account created, KYC under way; requirements_due: the provider needs more; completed: payouts enabled; disabled: the provider disabled the account',
    }),
    payouts_enabled: z.boolean(),
    requirements_due: z.array(z.string()).meta({ description: "What the provider still needs (Stripe's requirements.currently_due)" }),
    disabled_reason: z.string().nullable(),
    onboarding_run_id: z.string().nullable().meta({ description: 'The last onboarding action run' }),
    livemode: z.boolean(),
    kyc_updated_at: nullableDateTime,
    created_at: isoDateTime,
  })
  .meta({ id: 'PayoutWorker' });

export const onboardingSchema = z.object({
  worker: payoutWorkerSchema,
  onboarding: z.object({
    url: z.string().meta({ description: "The provider's hosted onboarding (KYC) page: single use, short-lived" }),
    expires_at: isoDateTime,
    run_id: z.string(),
    sent_by: z.enum(['email', 'sms', 'none']),
    message_run_id: z.string().nullable(),
  }),
});

export const payoutWorkerListSchema = listOf(payoutWorkerSchema);

export const createPayoutBody = z.strictObject({
  worker_id: z.string().min(1).max(100),
  amount: z.number().int().positive().max(100_000_000).meta({ description: 'What the worker earned, in integer minor units (cents)', example: 12550 }),
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/, 'an ISO 4217 currency code')
    .meta({ example: 'USD' }),
  reference: reference.meta({
    description: 'Your id for this payment (shift, gig, timesheet): one payout per reference, so a retry never pays twice',
    example: 'shift_2291',
  }),
  fee_basis_points: z
    .number()
    .int()
    .min(0)
    .max(MAX_FEE_BASIS_POINTS)
    .default(0)
    .meta({ description: 'The platform fee kept from the amount, in basis points (150 = 1.5%), rounded half up to the cent' }),
});

export const payoutSchema = z
  .object({
    id: z.string().meta({ example: 'pout_Jx8fQ2vZr1LkP0aYwE3c' }),
    object: z.literal('payout'),
    worker_id: z.string(),
    reference: z.string(),
    source: z.enum(['api', 'timesheet']),
    amount: z.number().int(),
    fee: z.number().int(),
    net: z.number().int().meta({ description: 'amount − fee: what reaches the worker' }),
    currency: z.string(),
    status: z.enum(['pending', 'transferred', 'in_transit', 'paid', 'failed']).meta({
      description:
        'pending: nothing moved yet (an outage: repeat the request); transferred: on the worker account; in_transit: instant payout under way; paid; failed (failure_code)',
    }),
    transfer_id: z.string().nullable(),
    transfer_run_id: z.string().nullable(),
    provider_payout_id: z.string().nullable(),
    payout_run_id: z.string().nullable(),
    failure_code: z.string().nullable(),
    failure_message: z.string().nullable(),
    livemode: z.boolean(),
    created_at: isoDateTime,
  })
  .meta({ id: 'Payout' });

export const webhookAnswerSchema = z.object({
  received: z.literal(true),
  type: z.enum(['account', 'payout']).nullable(),
  matched: z.boolean(),
});
