/**
 * Mounted at /v1/employee-uploads: the upload behind the signed link an employee receives
 * (no API key: the token is the credential; a changed token is 400 link_invalid, an expired
 * one 410). The file is JSON base64, like the reviewer-facing credential documents. Instead
 * of a document, the employee may present a verifiable credential at /credentials: held at
 * once when it meets the requirement.
 */
import { defineRoute, reply, type RouteDefinition } from '../../../platform/http/route';
import type { EmployeeService } from '../domain/employee-service';
import type { PresentedVerifiableCredential } from '../domain/role-credential-check';
import {
  credentialPresentationSchema,
  credentialPresentationView,
  employeeDocumentSchema,
  employeeDocumentView,
  linkPresentBody,
  linkQuery,
  linkUploadBody,
} from './employee-schemas';

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
    defineRoute({
      method: 'post',
      path: '/credentials',
      operationId: 'presentEmployeeCredentialWithLink',
      summary:
        "An employee presents a verifiable credential for the requirement their signed link names: the requirement's outcome (met, expired, unverified with its reason); a met one with an expiry is held from now on (held: true)",
      tags: ['credentials'],
      auth: [],
      query: linkQuery,
      body: linkPresentBody,
      response: credentialPresentationSchema,
      errors: [410],
      handler: async ({ query, body }) =>
        credentialPresentationView(await service.presentWithLink(query.token, body.credential as PresentedVerifiableCredential)),
    }),
  ];
}
