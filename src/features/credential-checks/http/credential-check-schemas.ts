import { z } from 'zod';
import { presentedCredentialsSchema } from '../domain/presented-input-schema';

export const createCheckBody = z
  .object({
    listing_id: z.string().min(1).max(100),
    credentials: presentedCredentialsSchema,
  })
  .strict();

const verificationReason = z
  .enum([
    'signature_invalid',
    'credential_malformed',
    'issuer_unresolvable',
    'issuer_mismatch',
    'credential_revoked',
    'credential_suspended',
    'status_unavailable',
    'not_yet_valid',
    'self_reported',
    'context_unavailable',
    'proof_unsupported',
  ])
  .nullable();

const evidence = z.object({
  source: z
    .enum(['vc_jwt', 'data_integrity', 'self_reported', 'document_review', 'background_check'])
    .meta({ description: "`background_check`: the vendor's report (or motor-vehicle record) a listing's background-check policy ordered" }),
  credential_id: z.string().nullable(),
  issuer: z.string(),
  types: z.array(z.string()),
  valid_from: z.string().nullable(),
  valid_until: z.string().nullable(),
  verification: z.enum(['verified', 'unverified', 'invalid']),
  detail: z.string().optional().meta({ description: "A vendor check's: what the reason rests on (a violation's description)" }),
  run_id: z
    .string()
    .optional()
    .meta({ description: "A failed vendor order's (`vendor_order_failed`): the action run that says why (GET /v1/integrations/runs/{id}); retry it there" }),
});

/** One requirement's outcome, with the credential it rests on. */
export const requirementOutcomeSchema = z.object({
  requirement: z.string().meta({ description: "The requirement's key" }),
  status: z.enum(['met', 'missing', 'expired', 'unverified', 'pending']),
  reason: z.string().nullable().meta({
    description:
      "Why not met: issuer_untrusted, credential_expired, validity_below_minimum, no_matching_credential, or the verification reason (signature_invalid, credential_revoked, …); a vendor check's: report_consider, invitation_expired, report_canceled, motor_vehicle_record_missing, driver_license_not_valid, major_violation, contact_email_missing (no email to send the vendor's invitation to: nothing ordered), vendor_order_failed (the vendor refused the order: the evidence names the failed action run)",
  }),
  evidence: evidence.nullable(),
});

/** The check an application carries (applications API, application.submitted, the host pipeline). */
export const applicationCredentialCheckSchema = z
  .object({
    status: z.enum(['met', 'not_met', 'pending']),
    requirements: z.array(requirementOutcomeSchema),
    checked_at: z.string(),
  })
  .meta({
    id: 'ApplicationCredentialCheck',
    description:
      "The listing's requirements checked automatically against the candidate's credentials (profile credentials count as self-reported; reviewer-approved documents as verified); null when the listing has none or the organization holds no verification action",
  });

export const credentialCheckSchema = z
  .object({
    object: z.literal('credential_check'),
    listing_id: z.string(),
    application_id: z.string().nullable().meta({ description: 'Set when the check is of an application' }),
    status: z
      .enum(['met', 'not_met', 'pending'])
      .meta({ description: 'met: every requirement is met; pending: only vendor checks still running stand between' }),
    requirements: z.array(requirementOutcomeSchema),
    credentials: z.array(
      z.object({
        source: z.enum(['vc_jwt', 'data_integrity', 'self_reported', 'document_review']),
        id: z.string().nullable(),
        types: z.array(z.string()),
        issuer: z.string(),
        name: z.string().nullable(),
        valid_from: z.string().nullable(),
        valid_until: z.string().nullable(),
        verification: z.object({ status: z.enum(['verified', 'unverified', 'invalid']), reason: verificationReason }),
      }),
    ),
    checked_at: z.string(),
  })
  .meta({
    id: 'CredentialCheck',
    example: {
      object: 'credential_check',
      listing_id: 'listing_HNKlZK814ei1Ofqzhm8C',
      application_id: null,
      status: 'met',
      requirements: [
        {
          requirement: 'rn_license',
          status: 'met',
          reason: null,
          evidence: {
            source: 'vc_jwt',
            credential_id: 'urn:uuid:8e0a4d0c-1f7e-4b59-9a0a-6f0d2b1c1a11',
            issuer: 'did:web:rn.board.example',
            types: ['VerifiableCredential', 'OpenBadgeCredential', 'License'],
            valid_from: '2026-01-01T00:00:00.000Z',
            valid_until: '2028-01-01T00:00:00.000Z',
            verification: 'verified',
          },
        },
      ],
      credentials: [],
      checked_at: '2026-11-26T09:00:00.000Z',
    },
  });
