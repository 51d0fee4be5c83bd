/** Mounted at /v1/roles: roles employees hold and their credential requirements. */
import type { Principal } from '../../../platform/http/principal';
import { defineRoute, reply, type RouteDefinition } from '../../../platform/http/route';
import { listOf } from '../../../platform/http/common-schemas';
import { z } from '../../../platform/http/route';
import type { EmployeeService } from '../domain/employee-service';
import { createRoleBody, pageQuery, roleComplianceSchema, roleParams, roleSchema, roleView, standingView, updateRoleBody, worstOf } from './employee-schemas';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;

export function roleRoutes(service: EmployeeService): RouteDefinition<any, any, any>[] {
  return [
    defineRoute({
      method: 'post',
      path: '/',
      operationId: 'createRole',
      summary: 'A role employees hold (RN, food handler) with its credential requirements (the model of listing requirements)',
      tags: ['credentials'],
      auth: ['organization'],
      idempotent: true,
      body: createRoleBody,
      status: 201,
      response: roleSchema,
      handler: async ({ principal, body }) => reply(201, roleView(await service.createRole(orgId(principal), body))),
    }),
    defineRoute({
      method: 'get',
      path: '/',
      operationId: 'listRoles',
      summary: "The organization's roles (cursor: limit, starting_after)",
      tags: ['credentials'],
      auth: ['organization'],
      query: pageQuery,
      response: listOf(roleSchema),
      handler: async ({ principal, query }) => {
        const rows = await service.listRoles(orgId(principal), query.limit + 1, query.starting_after);
        return { object: 'list' as const, data: rows.slice(0, query.limit).map(roleView), has_more: rows.length > query.limit, url: '/v1/roles' };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/:role_id',
      operationId: 'getRole',
      summary: 'One role and its requirements',
      tags: ['credentials'],
      auth: ['organization'],
      params: roleParams,
      response: roleSchema,
      handler: async ({ principal, params }) => roleView(await service.role(orgId(principal), params.role_id)),
    }),
    defineRoute({
      method: 'get',
      path: '/:role_id/compliance',
      operationId: 'getRoleCompliance',
      summary:
        'Every employee holding the role and where each stands on its requirements (met, expiring, expired, missing; cursor: limit, starting_after; background_checks.compliance_tracking)',
      tags: ['credentials'],
      auth: ['organization'],
      params: roleParams,
      query: pageQuery,
      response: roleComplianceSchema,
      errors: [403],
      handler: async ({ principal, params, query }) => {
        const page = await service.roleStanding(orgId(principal), params.role_id, query.limit, query.starting_after);
        return {
          object: 'list' as const,
          data: page.data.map(({ employee, standings }) => ({
            object: 'role_compliance' as const,
            employee_id: employee.id,
            external_id: employee.externalId,
            name: employee.name,
            status: worstOf(standings),
            requirements: standings.map(standingView),
          })),
          has_more: page.hasMore,
          url: `/v1/roles/${params.role_id}/compliance`,
        };
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/:role_id',
      operationId: 'updateRole',
      summary: 'Renames a role or replaces its requirements (absent: kept; [] removes them)',
      tags: ['credentials'],
      auth: ['organization'],
      params: roleParams,
      body: updateRoleBody,
      response: roleSchema,
      handler: async ({ principal, params, body }) => roleView(await service.updateRole(orgId(principal), params.role_id, body)),
    }),
    defineRoute({
      method: 'delete',
      path: '/:role_id',
      operationId: 'deleteRole',
      summary: 'Deletes a role no employee holds (409 role_in_use otherwise)',
      tags: ['credentials'],
      auth: ['organization'],
      params: roleParams,
      response: z.object({ object: z.literal('role'), id: z.string(), deleted: z.literal(true) }),
      errors: [409],
      handler: async ({ principal, params }) => {
        await service.deleteRole(orgId(principal), params.role_id);
        return { object: 'role' as const, id: params.role_id, deleted: true as const };
      },
    }),
  ];
}
