/**
 * Mounted at /v1/employees: employees and the roles they hold, where they stand on their
 * roles' requirements, the upload link emailed to them, and the review of what they uploaded.
 */
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../../platform/http/principal';
import { defineRoute, reply, z, type RouteDefinition } from '../../../platform/http/route';
import { listOf } from '../../../platform/http/common-schemas';
import type { EmployeeService } from '../domain/employee-service';
import { DOCUMENT_MEDIA_TYPES, sendDocumentFile } from '../../credential-documents/http/reviewed-document-schemas';
import type { PresentedVerifiableCredential } from '../domain/role-credential-check';
import {
  approveBody,
  credentialPresentationSchema,
  credentialPresentationView,
  presentCredentialBody,
  createEmployeeBody,
  employeeDocumentParams,
  employeeDocumentSchema,
  employeeDocumentView,
  employeeParams,
  employeeSchema,
  employeeView,
  listEmployeesQuery,
  rejectBody,
  standingSchema,
  standingView,
  updateEmployeeBody,
  uploadLinkBody,
  uploadLinkSchema,
} from './employee-schemas';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;
const reviewer = (principal: Principal) => (principal.kind === 'organization' ? (principal.keyPrefix ?? 'api_key') : 'unknown');

export function employeeRoutes(service: EmployeeService): RouteDefinition<any, any, any>[] {
  return [
    defineRoute({
      method: 'post',
      path: '/',
      operationId: 'createEmployee',
      summary: "An employee (the host's id, name, email, phone, language) and the roles they hold (409 employee_exists for a known external_id)",
      tags: ['credentials'],
      auth: ['organization'],
      idempotent: true,
      body: createEmployeeBody,
      status: 201,
      response: employeeSchema,
      errors: [409],
      handler: async ({ principal, body }) =>
        reply(
          201,
          employeeView(
            await service.createEmployee(orgId(principal), {
              externalId: body.external_id,
              name: body.name,
              email: body.email,
              phone: body.phone,
              language: body.language,
              roleIds: body.roles,
            }),
          ),
        ),
    }),
    defineRoute({
      method: 'get',
      path: '/',
      operationId: 'listEmployees',
      summary: "The organization's employees (filter: role_id; cursor: limit, starting_after)",
      tags: ['credentials'],
      auth: ['organization'],
      query: listEmployeesQuery,
      response: listOf(employeeSchema),
      handler: async ({ principal, query }) => {
        const rows = await service.listEmployees(orgId(principal), { limit: query.limit + 1, startingAfter: query.starting_after, roleId: query.role_id });
        return { object: 'list' as const, data: rows.slice(0, query.limit).map(employeeView), has_more: rows.length > query.limit, url: '/v1/employees' };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/:employee_id',
      operationId: 'getEmployee',
      summary: 'One employee',
      tags: ['credentials'],
      auth: ['organization'],
      params: employeeParams,
      response: employeeSchema,
      handler: async ({ principal, params }) => employeeView(await service.employee(orgId(principal), params.employee_id)),
    }),
    defineRoute({
      method: 'patch',
      path: '/:employee_id',
      operationId: 'updateEmployee',
      summary: "Changes an employee's contact, language or roles (roles replaces the list)",
      tags: ['credentials'],
      auth: ['organization'],
      params: employeeParams,
      body: updateEmployeeBody,
      response: employeeSchema,
      handler: async ({ principal, params, body }) =>
        employeeView(
          await service.updateEmployee(orgId(principal), params.employee_id, {
            ...(body.name !== undefined ? { name: body.name } : {}),
            ...(body.email !== undefined ? { email: body.email } : {}),
            ...(body.phone !== undefined ? { phone: body.phone } : {}),
            ...(body.language !== undefined ? { language: body.language } : {}),
            ...(body.roles !== undefined ? { roleIds: body.roles } : {}),
          }),
        ),
    }),
    defineRoute({
      method: 'delete',
      path: '/:employee_id',
      operationId: 'deleteEmployee',
      summary: 'Deletes an employee and their uploaded documents (files too)',
      tags: ['credentials'],
      auth: ['organization'],
      params: employeeParams,
      response: z.object({ object: z.literal('employee'), id: z.string(), deleted: z.literal(true) }),
      handler: async ({ principal, params }) => {
        await service.deleteEmployee(orgId(principal), params.employee_id);
        return { object: 'employee' as const, id: params.employee_id, deleted: true as const };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/:employee_id/compliance',
      operationId: 'getEmployeeCompliance',
      summary: 'Where the employee stands on each requirement of each role: met, expiring, expired or missing (background_checks.compliance_tracking)',
      tags: ['credentials'],
      auth: ['organization'],
      params: employeeParams,
      response: standingSchema,
      errors: [403],
      handler: async ({ principal, params }) => ({
        object: 'employee_compliance' as const,
        employee_id: params.employee_id,
        roles: (await service.standing(orgId(principal), params.employee_id)).map((r) => ({ role_id: r.roleId, requirements: r.standings.map(standingView) })),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/:employee_id/upload-links',
      operationId: 'sendEmployeeUploadLink',
      summary:
        'Emails the employee a signed link (14 days) to upload a document for one requirement of a role they hold, through the email connection (an action run of background_checks.compliance_tracking)',
      tags: ['credentials'],
      auth: ['organization'],
      idempotent: true,
      params: employeeParams,
      body: uploadLinkBody,
      status: 201,
      response: uploadLinkSchema,
      errors: [403, 409, 503],
      handler: async ({ principal, params, body, req }) => {
        const link = await service.sendUploadLink(
          orgId(principal),
          params.employee_id,
          body.role_id,
          body.requirement,
          req.get('Idempotency-Key') ?? randomUUID(),
        );
        return reply(201, { object: 'employee_upload_link' as const, url: link.url, expires_at: link.expiresAt.toISOString(), delivery_id: link.deliveryId });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/:employee_id/credentials',
      operationId: 'presentEmployeeCredential',
      summary:
        "Presents a verifiable credential the host holds for the employee, for one requirement of one of their roles: examined as a candidate's (proof, trusted issuer, validity, status list); a met one with an expiry is held from now on",
      tags: ['credentials'],
      auth: ['organization'],
      params: employeeParams,
      body: presentCredentialBody,
      response: credentialPresentationSchema,
      errors: [403],
      handler: async ({ principal, params, body }) =>
        credentialPresentationView(
          await service.presentCredential(
            orgId(principal),
            params.employee_id,
            { roleId: body.role_id, requirementKey: body.requirement },
            body.credential as PresentedVerifiableCredential,
          ),
        ),
    }),
    defineRoute({
      method: 'get',
      path: '/:employee_id/documents',
      operationId: 'listEmployeeDocuments',
      summary: "The employee's uploaded documents and their review decisions, oldest first",
      tags: ['credentials'],
      auth: ['organization'],
      params: employeeParams,
      response: listOf(employeeDocumentSchema),
      handler: async ({ principal, params }) => ({
        object: 'list' as const,
        data: (await service.documentsOf(orgId(principal), params.employee_id)).map(employeeDocumentView),
        has_more: false,
        url: `/v1/employees/${params.employee_id}/documents`,
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/:employee_id/documents/:document_id/content',
      operationId: 'getEmployeeDocumentContent',
      summary: 'The document itself, decrypted, for the reviewer (a download; every read is audited)',
      tags: ['credentials'],
      auth: ['organization'],
      params: employeeDocumentParams,
      produces: DOCUMENT_MEDIA_TYPES,
      audit: 'read',
      handler: async ({ principal, params, res }) => {
        const { document, content } = await service.documentContent(orgId(principal), params.employee_id, params.document_id);
        return sendDocumentFile(res, document, content);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/:employee_id/documents/:document_id/approve',
      operationId: 'approveEmployeeDocument',
      summary: 'Approves the document with the expiry read on it: compliance tracks it for the employee and role until then (409 document_already_reviewed)',
      tags: ['credentials'],
      auth: ['organization'],
      params: employeeDocumentParams,
      body: approveBody,
      response: employeeDocumentSchema,
      errors: [409],
      handler: async ({ principal, params, body }) =>
        employeeDocumentView(await service.approve(orgId(principal), params.employee_id, params.document_id, new Date(body.expires_at), reviewer(principal))),
    }),
    defineRoute({
      method: 'post',
      path: '/:employee_id/documents/:document_id/reject',
      operationId: 'rejectEmployeeDocument',
      summary: 'Rejects the document with a reason (409 document_already_reviewed)',
      tags: ['credentials'],
      auth: ['organization'],
      params: employeeDocumentParams,
      body: rejectBody,
      response: employeeDocumentSchema,
      errors: [409],
      handler: async ({ principal, params, body }) =>
        employeeDocumentView(await service.reject(orgId(principal), params.employee_id, params.document_id, body.reason, reviewer(principal))),
    }),
  ];
}
