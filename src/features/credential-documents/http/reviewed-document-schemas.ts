/**
 * What every reviewed document's API shares, whatever its subject: the file in the upload
 * body, the reviewer's decision bodies, the document's fields in a response, and the download.
 */
import type { Response } from 'express';
import { z } from '../../../platform/http/route';
import { isoDateTime } from '../../../platform/http/common-schemas';
import type { DocumentSubject, ReviewedDocument } from '../domain/reviewed-document';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The uploaded file: its name (only ever shown) and its bytes, base64. */
export const documentFileFields = (maxBytes: number) => ({
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
});

export const approveBody = z
  .object({
    expires_at: z.iso.datetime({ offset: true }).meta({ description: 'The expiry date the reviewer read on the document; the requirement is met until then' }),
  })
  .strict();

export const rejectBody = z.object({ reason: z.string().trim().min(1).max(1000).meta({ example: 'The license number is unreadable' }) }).strict();

/** A document's own fields in a response (the subject's ids come before them). */
export const reviewedDocumentFields = {
  requirement: z.string(),
  credential_type: z.string(),
  file_name: z.string(),
  media_type: z
    .enum(['application/pdf', 'image/png', 'image/jpeg'])
    .meta({ description: "Read from the file's magic number, not from what the uploader declared" }),
  size_bytes: z.number().int(),
  sha256: z.string(),
  status: z.enum(['pending_review', 'approved', 'rejected']),
  expires_at: isoDateTime.nullable(),
  rejection_reason: z.string().nullable(),
  reviewed_at: isoDateTime.nullable(),
  created_at: isoDateTime,
};

export const reviewedDocumentFieldsView = <S extends DocumentSubject>(d: ReviewedDocument<S>) => ({
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

export const DOCUMENT_MEDIA_TYPES = ['application/pdf', 'image/png', 'image/jpeg'];

// The download's name is the plugin's id, never the uploader's file name (no header injection, no path).
const EXTENSIONS: Record<string, string> = { 'application/pdf': '.pdf', 'image/png': '.png', 'image/jpeg': '.jpg' };

/** The decrypted file as a download that no browser renders or runs in the API's origin. */
export function sendDocumentFile(res: Response, document: { id: string; mediaType: string }, content: Buffer): undefined {
  res.setHeader('Content-Type', document.mediaType);
  res.setHeader('Content-Disposition', `attachment; filename="${document.id}${EXTENSIONS[document.mediaType] ?? ''}"`);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
  res.status(200).send(content);
  return undefined;
}
