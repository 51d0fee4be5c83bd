/**
 * Mounted at /v1/pos: hris.pos_sync's download of every current team member as one
 * pos_team_member.v1 CSV, for a point of sale whose employee import is a web page.
 */
import type { Principal } from '../../../platform/http/principal';
import { defineRoute, reply, type RouteDefinition } from '../../../platform/http/route';
import type { PosTeamMemberExports } from '../domain/pos-team-member-exports';
import { teamMemberExportBody, teamMemberExportSchema } from './contractor-schemas';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;

export function posRoutes(exports: PosTeamMemberExports): RouteDefinition<any, any, any>[] {
  return [
    defineRoute({
      method: 'post',
      path: '/team_member_exports',
      operationId: 'createTeamMemberExport',
      summary:
        "Every current team member of the point of sale (hris.pos_sync) as one pos_team_member.v1 CSV to upload to a POS's web import (Toast, Clover), as an action run with its SHA-256",
      tags: ['pos'],
      auth: ['organization'],
      body: teamMemberExportBody,
      status: 201,
      response: teamMemberExportSchema,
      errors: [403],
      handler: async ({ principal, body }) => {
        const e = await exports.export(orgId(principal), body.status);
        return reply(201, {
          object: 'team_member_export' as const,
          format: e.format,
          status: e.status,
          destination: e.destination,
          file_name: e.fileName,
          sha256: e.sha256,
          rows: e.rows,
          run_id: e.runId,
          content: e.content,
        });
      },
    }),
  ];
}
