import { z } from '../../../platform/http/route';
import type { CredentialDocument } from '../domain/credential-document';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export const uploadBody = (maxBytes: number) =>
  z
    .object({
      application_id: z.string().min(1).max(100),
      requirement: z.string().min(1).max(63).meta({ description: "The key of the listing's requirement the document is for", example: 'rn_license' }),
      file_name: z
        .string()
        .trim()
        .min(1)
        .max(200)
        // No path separators or control characters: the name is only ever shown, never used as a path.
        .refine((name) => !/[\\/]/.test(name) && ![...name].some((c) => c.charCodeAt(0) < 0x20), 'a file name without path separators or control characters')
        .meta({ example: 'rn-license.pdf' }),
      // Its size is bounded by the route's body limit and the decoded length (413 either way).
      content_base64: z
        .string()
        .min(4)
        .regex(BASE64, 'standard base64')
        .meta({ description: `The file, base64-encoded (PDF, PNG or JPEG, read from its content; at most ${maxBytes} bytes)` }),
    })
    .strict();

export const documentParams = z.object({ document_id: z.string().max(100) });

export const approveBody = z
  .object({
    expires_at: z.iso.datetime({ offset: true }).meta({ description: 'The expiry date the reviewer read on the document; the requirement is met until then' }),
  })
  .strict();

export const rejectBody = z.object({ reason: z.string().trim().min(1).max(1000).meta({ example: 'The license number is unreadable' }) }).strict();

export const documentSchema = z
  .object({
    object: z.literal('credential_document'),
    id: z.string(),
    application_id: z.string(),
    listing_id: z.string(),
    requirement: z.string(),
    credential_type: z.string(),
    file_name: z.string(),
    media_type: z
      .enum(['application/pdf', 'image/png', 'image/jpeg'])
      .meta({ description: "Read from the file's magic number, not from what the uploader declared" }),
    size_bytes: z.number().int(),
    sha256: z.string(),
    status: z.enum(['pending_review', 'approved', 'rejected']),
    expires_at: z.string().nullable(),
    rejection_reason: z.string().nullable(),
    reviewed_at: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({
    id: 'CredentialDocument',
    example: {
      object: 'credential_document',
      id: 'cdoc_4fQ9nXk2LmP0aZr7TbYc',
      application_id: 'app_Q2w3E4r5T6y7U8i9O0pA',
      listing_id: 'listing_HNKlZK814ei1Ofqzhm8C',
      requirement: 'rn_license',
      credential_type: 'License',
      file_name: 'rn-license.pdf',
      media_type: 'application/pdf',
      size_bytes: 182_344,
      sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      status: 'approved',
      expires_at: '2028-06-30T00:00:00.000Z',
      rejection_reason: null,
      reviewed_at: '2026-11-26T10:00:00.000Z',
      created_at: '2026-11-26T09:00:00.000Z',
    },
  });

export const documentView = (d: CredentialDocument): z.output<typeof documentSchema> => ({
  object: 'credential_document',
  id: d.id,
  application_id: d.applicationId,
  listing_id: d.listingId,
  requirement: d.requirementKey,
  credential_type: d.credentialType,
  file_name: d.fileName,
  media_type: d.mediaType,
  size_bytes: d.sizeBytes,
  sha256: d.sha256,
  status: d.status,
  expires_at: d.expiresAt?.toISOString() ?? null,
  rejection_reason: d.rejectionReason,
  reviewed_at: d.reviewedAt?.toISOString() ?? null,
  created_at: d.createdAt.toISOString(),
});
