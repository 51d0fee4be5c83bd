/**
 * Mounted at /v1/credential-documents: a candidate (or the organization for them) uploads a
 * document for a requirement; the organization's reviewer reads it and approves it with
 * the expiry date on it, or rejects it with a reason. Decisions are audited as every
 * mutating call is.
 */
import type { Principal } from '../../../platform/http/principal';
import { defineRoute, reply, z, type RouteDefinition } from '../../../platform/http/route';
import type { CredentialDocumentService, UploadedBy } from '../domain/credential-document-service';
import { approveBody, documentParams, documentSchema, documentView, rejectBody, uploadBody } from './credential-document-schemas';
import { DOCUMENT_MEDIA_TYPES, sendDocumentFile } from './reviewed-document-schemas';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;
const reviewer = (principal: Principal) => (principal.kind === 'organization' ? (principal.keyPrefix ?? 'api_key') : 'unknown');

const uploader = (principal: Principal): UploadedBy =>
  principal.kind === 'candidate' ? { organizationId: principal.organizationId, profileUserId: principal.profileUserId } : { organizationId: orgId(principal) };

export const UPLOAD_OPERATION = 'uploadCredentialDocument';

export function credentialDocumentRoutes(documents: CredentialDocumentService, maxBytes: number): RouteDefinition<any, any, any>[] {
  return [
    defineRoute({
      method: 'post',
      path: '/',
      operationId: UPLOAD_OPERATION,
      summary:
        "Upload a document (PDF, PNG or JPEG, base64) for one of an application's credential requirements; it awaits a reviewer. A candidate's token uploads for the candidate's own applications only",
      tags: ['credentials'],
      auth: ['organization', 'candidate'],
      body: uploadBody(maxBytes),
      status: 201,
      response: documentSchema,
      errors: [404],
      handler: async ({ principal, body }) => {
        const document = await documents.upload(uploader(principal), {
          applicationId: body.application_id,
          requirementKey: body.requirement,
          fileName: body.file_name,
          content: Buffer.from(body.content_base64, 'base64'),
        });
        return reply(201, documentView(document));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/',
      operationId: 'listCredentialDocuments',
      summary: "An application's uploaded documents and their review status, oldest first",
      tags: ['credentials'],
      auth: ['organization'],
      query: z.object({ application_id: z.string().min(1).max(100) }).strict(),
      response: z.object({ object: z.literal('list'), data: z.array(documentSchema), has_more: z.literal(false), url: z.string() }),
      errors: [404],
      handler: async ({ principal, query }) => ({
        object: 'list' as const,
        data: (await documents.listForApplication(orgId(principal), query.application_id)).map(documentView),
        has_more: false as const,
        url: '/v1/credential-documents',
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/:document_id',
      operationId: 'getCredentialDocument',
      summary: "A document's metadata and review decision",
      tags: ['credentials'],
      auth: ['organization'],
      params: documentParams,
      response: documentSchema,
      handler: async ({ principal, params }) => documentView(await documents.get(orgId(principal), params.document_id)),
    }),
    defineRoute({
      method: 'get',
      path: '/:document_id/content',
      operationId: 'getCredentialDocumentContent',
      summary: 'The document itself, decrypted, for the reviewer (a download; every read is audited)',
      tags: ['credentials'],
      auth: ['organization'],
      params: documentParams,
      produces: DOCUMENT_MEDIA_TYPES,
      audit: 'read',
      handler: async ({ principal, params, res }) => {
        const { document, content } = await documents.content(orgId(principal), params.document_id);
        return sendDocumentFile(res, document, content);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/:document_id/approve',
      operationId: 'approveCredentialDocument',
      summary: 'Approve a document awaiting review, with the expiry date read on it: it meets its requirement until then',
      tags: ['credentials'],
      auth: ['organization'],
      params: documentParams,
      body: approveBody,
      response: documentSchema,
      errors: [409],
      handler: async ({ principal, params, body }) =>
        documentView(await documents.approve(orgId(principal), params.document_id, new Date(body.expires_at), reviewer(principal))),
    }),
    defineRoute({
      method: 'post',
      path: '/:document_id/reject',
      operationId: 'rejectCredentialDocument',
      summary: 'Reject a document awaiting review, with the reason the candidate will read',
      tags: ['credentials'],
      auth: ['organization'],
      params: documentParams,
      body: rejectBody,
      response: documentSchema,
      errors: [409],
      handler: async ({ principal, params, body }) =>
        documentView(await documents.reject(orgId(principal), params.document_id, body.reason, reviewer(principal))),
    }),
  ];
}
