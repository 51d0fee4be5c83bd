/**
 * Mounted at /v1/employee-uploads: the upload behind the signed link an employee receives
 * (no API key: the token is the credential; a changed token is 400 link_invalid, an expired
 * one 410). The file is JSON base64, like the reviewer-facing credential documents.
 */
import { defineRoute, reply, type RouteDefinition } from '../../../platform/http/route';
import type { EmployeeService } from '../domain/employee-service';
import { employeeDocumentSchema, employeeDocumentView, linkQuery, linkUploadBody } from './employee-schemas';

export const LINK_UPLOAD_OPERATION = 'uploadEmployeeDocumentWithLink';

export function employeeUploadRoutes(service: EmployeeService, maxBytes: number): RouteDefinition<any, any, any>[] {
  return [
    defineRoute({
      method: 'post',
      path: '/',
      operationId: LINK_UPLOAD_OPERATION,
      summary:
        'An employee uploads a document (PDF, PNG or JPEG, read from its content) for the requirement their signed link names: 201 pending_review; 413 too large, 415 another type',
      tags: ['credentials'],
      auth: [],
      query: linkQuery,
      body: linkUploadBody(maxBytes),
      status: 201,
      response: employeeDocumentSchema,
      errors: [410, 413, 415],
      handler: async ({ query, body }) =>
        reply(
          201,
          employeeDocumentView(await service.uploadWithLink(query.token, { fileName: body.file_name, content: Buffer.from(body.content_base64, 'base64') })),
        ),
    }),
  ];
}
