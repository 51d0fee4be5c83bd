/**
 * Mounted at /v1/timesheets: placements, weekly timesheets, their entries and submission to
 * the client's contact (payroll.time_tracking).
 */
import type { Principal } from '../../../platform/http/principal';
import { defineRoute, reply, z, type RouteDefinition } from '../../../platform/http/route';
import type { TimeEntry } from '../domain/timesheet';
import type { TimesheetService } from '../domain/timesheet-service';
import { createPlacementBody, createTimesheetBody, listTimesheetsQuery, placementSchema, replaceEntriesBody, timesheetSchema } from './timesheet-schemas';
import { placementView, timesheetView } from './timesheet-views';
import { listOf } from '../../../platform/http/common-schemas';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;
const entriesOf = (entries: { start: string; end: string; break_minutes: number }[]): TimeEntry[] =>
  entries.map((e) => ({ start: e.start, end: e.end, breakMinutes: e.break_minutes }));
const timesheetParams = z.object({ timesheet_id: z.string().max(100) });

export function timesheetRoutes(service: TimesheetService): RouteDefinition<any, any, any>[] {
  return [
    defineRoute({
      method: 'post',
      path: '/placements',
      operationId: 'createPlacement',
      summary: 'Place a worker at a client company: bill and pay rates (integer cents per hour), overtime rule, time zone, the contact who approves',
      tags: ['timesheets'],
      auth: ['organization'],
      idempotent: true,
      body: createPlacementBody,
      status: 201,
      response: placementSchema,
      errors: [403],
      handler: async ({ principal, body }) => {
        const placement = await service.createPlacement(orgId(principal), {
          workerId: body.worker_id,
          workerName: body.worker_name,
          ...(body.worker_email ? { workerEmail: body.worker_email } : {}),
          clientCompanyId: body.client_company_id,
          clientName: body.client_name,
          clientContactName: body.client_contact.name,
          clientContactEmail: body.client_contact.email,
          billRateCents: body.bill_rate,
          payRateCents: body.pay_rate,
          currency: body.currency,
          overtimeRule: body.overtime_rule,
          timezone: body.timezone,
        });
        return reply(201, placementView(placement));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/placements/:placement_id',
      operationId: 'getPlacement',
      summary: 'One placement',
      tags: ['timesheets'],
      auth: ['organization'],
      params: z.object({ placement_id: z.string().max(100) }),
      response: placementSchema,
      handler: async ({ principal, params }) => placementView(await service.placement(orgId(principal), params.placement_id)),
    }),
    defineRoute({
      method: 'post',
      path: '/',
      operationId: 'createTimesheet',
      summary: "A draft timesheet for one placement's workweek (one per placement and week: timesheet_exists otherwise), with its entries",
      tags: ['timesheets'],
      auth: ['organization'],
      idempotent: true,
      body: createTimesheetBody,
      status: 201,
      response: timesheetSchema,
      errors: [403, 404, 409],
      handler: async ({ principal, body }) =>
        reply(
          201,
          timesheetView(
            await service.create(orgId(principal), { placementId: body.placement_id, periodStart: body.period_start, entries: entriesOf(body.entries) }),
          ),
        ),
    }),
    defineRoute({
      method: 'get',
      path: '/',
      operationId: 'listTimesheets',
      summary: "The organization's timesheets (filters: status, placement_id; cursor: limit, starting_after)",
      tags: ['timesheets'],
      auth: ['organization'],
      query: listTimesheetsQuery,
      response: listOf(timesheetSchema),
      handler: async ({ principal, query }) => {
        const rows = await service.list(orgId(principal), {
          limit: query.limit + 1,
          ...(query.status ? { status: query.status } : {}),
          ...(query.placement_id ? { placementId: query.placement_id } : {}),
          ...(query.starting_after ? { startingAfter: query.starting_after } : {}),
        });
        return { object: 'list' as const, data: rows.slice(0, query.limit).map(timesheetView), has_more: rows.length > query.limit, url: '/v1/timesheets' };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/:timesheet_id',
      operationId: 'getTimesheet',
      summary: 'One timesheet: entries, the split into regular, overtime and double-time minutes, pay and bill amounts, the decision',
      tags: ['timesheets'],
      auth: ['organization'],
      params: timesheetParams,
      response: timesheetSchema,
      handler: async ({ principal, params }) => timesheetView(await service.get(orgId(principal), params.timesheet_id)),
    }),
    defineRoute({
      method: 'put',
      path: '/:timesheet_id/entries',
      operationId: 'replaceTimesheetEntries',
      summary: 'Replace the entries of a draft or rejected timesheet (invalid_timesheet_state once submitted or approved)',
      tags: ['timesheets'],
      auth: ['organization'],
      params: timesheetParams,
      body: replaceEntriesBody,
      response: timesheetSchema,
      errors: [409],
      handler: async ({ principal, params, body }) =>
        timesheetView(await service.replaceEntries(orgId(principal), params.timesheet_id, entriesOf(body.entries))),
    }),
    defineRoute({
      method: 'post',
      path: '/:timesheet_id/submit',
      operationId: 'submitTimesheet',
      summary:
        "Submit for approval: the client's contact is emailed a signed link (an action run, review_run_id) to approve or reject with a note; idempotent while submitted",
      tags: ['timesheets'],
      auth: ['organization'],
      params: timesheetParams,
      response: timesheetSchema,
      errors: [403, 409, 503],
      handler: async ({ principal, params }) => timesheetView(await service.submit(orgId(principal), params.timesheet_id)),
    }),
  ];
}
