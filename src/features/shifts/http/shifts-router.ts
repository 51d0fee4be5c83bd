/**
 * Mounted at /v1/shifts (scheduling.shift_scheduling): publish, list, read, change and
 * cancel shifts; the person's feed link; outside production, the reminder sweep at a test
 * clock's time. The person's pages (/v1/shifts/confirm, /v1/shifts/feed) are in shift-pages-router.ts.
 */
import { notFound } from '../../../kernel/errors';
import { listOf } from '../../../platform/http/common-schemas';
import type { Principal } from '../../../platform/http/principal';
import { defineRoute, reply, z, type RouteDefinition } from '../../../platform/http/route';
import type { ShiftChange, Shifts } from '../domain/shifts';
import { createShiftBody, feedBody, feedSchema, listShiftsQuery, shiftParams, shiftSchema, updateShiftBody } from './shift-schemas';
import { shiftView } from './shift-views';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;
const date = (value: string | undefined) => (value === undefined ? undefined : new Date(value));

function changeOf(body: z.output<typeof updateShiftBody>): ShiftChange {
  const change: ShiftChange = {};
  if (body.employee) change.employee = body.employee;
  if (body.location !== undefined) change.location = body.location;
  if (body.role !== undefined) change.role = body.role;
  if (body.notes !== undefined) change.notes = body.notes;
  if (body.starts_at !== undefined) change.startsAt = date(body.starts_at)!;
  if (body.ends_at !== undefined) change.endsAt = date(body.ends_at)!;
  if (body.remind_minutes_before !== undefined) change.remindMinutesBefore = body.remind_minutes_before;
  if (body.organizer !== undefined) change.organizer = body.organizer;
  return change;
}

export function shiftRoutes(shifts: Shifts): RouteDefinition<any, any, any>[] {
  return [
    defineRoute({
      method: 'post',
      path: '/',
      operationId: 'createShift',
      summary:
        'Publish a shift for an employee: an iTIP invitation by email (REQUEST, SEQUENCE 0) and an SMS with a signed confirmation link, each an action run, sent by a job; a reminder before it starts',
      tags: ['shifts'],
      auth: ['organization'],
      idempotent: true,
      body: createShiftBody,
      status: 201,
      response: shiftSchema,
      errors: [403],
      handler: async ({ principal, body }) => {
        const shift = await shifts.create(orgId(principal), {
          employee: {
            id: body.employee.id,
            name: body.employee.name,
            email: body.employee.email ?? null,
            phone: body.employee.phone ?? null,
            timezone: body.employee.timezone,
            language: body.employee.language,
          },
          location: body.location,
          role: body.role ?? null,
          notes: body.notes ?? null,
          startsAt: new Date(body.starts_at),
          endsAt: new Date(body.ends_at),
          ...(body.organizer ? { organizer: body.organizer } : {}),
          ...(body.remind_minutes_before !== undefined ? { remindMinutesBefore: body.remind_minutes_before } : {}),
        });
        return reply(201, shiftView(shift));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/',
      operationId: 'listShifts',
      summary: "The organization's shifts by start time (filters: employee_id, status; cursor: limit, starting_after)",
      tags: ['shifts'],
      auth: ['organization'],
      query: listShiftsQuery,
      response: listOf(shiftSchema),
      // resource_missing: starting_after names no shift of the organization.
      errors: [404],
      handler: async ({ principal, query }) => {
        const rows = await shifts.list(orgId(principal), {
          limit: query.limit + 1,
          ...(query.employee_id ? { employeeId: query.employee_id } : {}),
          ...(query.status ? { status: query.status } : {}),
          ...(query.starting_after ? { startingAfter: query.starting_after } : {}),
        });
        return { object: 'list' as const, data: rows.slice(0, query.limit).map(shiftView), has_more: rows.length > query.limit, url: '/v1/shifts' };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/feeds',
      operationId: 'createShiftFeedLink',
      summary:
        "An employee's subscription feed (webcal://, signed, no API key) listing their upcoming shifts; rotate: true makes a new link and revokes the old",
      tags: ['shifts'],
      auth: ['organization'],
      idempotent: true,
      body: feedBody,
      response: feedSchema,
      errors: [403, 404],
      handler: async ({ principal, body }) => {
        const link = await shifts.feedLink(orgId(principal), body.employee_id, body.rotate);
        return { object: 'shift_feed' as const, employee_id: link.employeeId, version: link.version, url: link.url, webcal_url: link.webcalUrl };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/operator/sweep',
      operationId: 'operatorRunShiftReminderSweep',
      summary:
        'Operator, outside production: runs the reminder sweep now, or as of `at` (a test clock: reminders due by then go out once, as the scheduled sweep would send them)',
      tags: ['shifts'],
      auth: ['operator'],
      body: z.object({ at: z.iso.datetime({ offset: true }).optional() }).strict(),
      response: z.object({ reminded: z.number().int() }),
      handler: async ({ body }) => {
        if (!shifts.testClocks) throw notFound('test clock');
        return shifts.sweep(body.at ? new Date(body.at) : undefined);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/:shift_id',
      operationId: 'getShift',
      summary: 'One shift: the person, the times, the iCalendar UID and SEQUENCE, their answer, the reminder and the runs that carried it',
      tags: ['shifts'],
      auth: ['organization'],
      params: shiftParams,
      response: shiftSchema,
      handler: async ({ principal, params }) => shiftView(await shifts.get(orgId(principal), params.shift_id)),
    }),
    defineRoute({
      method: 'patch',
      path: '/:shift_id',
      operationId: 'updateShift',
      summary:
        'Change a shift: SEQUENCE + 1 and a new REQUEST with the same UID, and an SMS; a new time or place asks the person again (response back to pending) and moves the reminder',
      tags: ['shifts'],
      auth: ['organization'],
      params: shiftParams,
      body: updateShiftBody,
      response: shiftSchema,
      errors: [403, 409],
      handler: async ({ principal, params, body }) => shiftView(await shifts.update(orgId(principal), params.shift_id, changeOf(body))),
    }),
    defineRoute({
      method: 'delete',
      path: '/:shift_id',
      operationId: 'cancelShift',
      summary: 'Cancel a shift: a CANCEL with the same UID and a higher SEQUENCE, and an SMS; it leaves the feed. Idempotent',
      tags: ['shifts'],
      auth: ['organization'],
      params: shiftParams,
      response: shiftSchema,
      errors: [403],
      handler: async ({ principal, params }) => shiftView(await shifts.cancel(orgId(principal), params.shift_id)),
    }),
  ];
}
