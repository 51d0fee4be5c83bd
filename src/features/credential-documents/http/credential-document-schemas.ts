import { z } from '../../../platform/http/route';
import type { CredentialDocument } from '../domain/credential-document';
import { documentFileFields, reviewedDocumentFields, reviewedDocumentFieldsView } from './reviewed-document-schemas';

export { approveBody, rejectBody } from './reviewed-document-schemas';

export const uploadBody = (maxBytes: number) =>
  z
    .object({
      application_id: z.string().min(1).max(100),
      requirement: z.string().min(1).max(63).meta({ description: "The key of the listing's requirement the document is for", example: 'rn_license' }),
      ...documentFileFields(maxBytes),
    })
    .strict();

export const documentParams = z.object({ document_id: z.string().max(100) });

export const documentSchema = z
  .object({
    object: z.literal('credential_document'),
    id: z.string(),
    application_id: z.string(),
    listing_id: z.string(),
    ...reviewedDocumentFields,
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
  ...reviewedDocumentFieldsView(d),
});
