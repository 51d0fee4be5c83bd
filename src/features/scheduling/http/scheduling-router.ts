/** Mounted at /v1/scheduling: the host asks for a self-scheduled interview, reads the request, withdraws it. */
import type { Principal } from '../../../platform/http/principal';
import { defineRoute, reply, z, type RouteDefinition } from '../../../platform/http/route';
import type { TimeRange } from '../domain/calendar-port';
import type { WeeklyHours } from '../domain/open-slots';
import type { SchedulingRequest } from '../domain/scheduling-request';
import type { SchedulingRequests } from '../domain/scheduling-requests';
import { cancelSchedulingRequestBody, createSchedulingRequestBody, schedulingRequestSchema, workingHoursSchema } from './scheduling-schemas';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const OFFICE_HOURS: WeeklyHours = {
  1: [['09:00', '17:00']],
  2: [['09:00', '17:00']],
  3: [['09:00', '17:00']],
  4: [['09:00', '17:00']],
  5: [['09:00', '17:00']],
};

function weeklyHours(hours: z.output<typeof workingHoursSchema> | undefined): WeeklyHours {
  if (!hours) return OFFICE_HOURS;
  const out: Record<number, [string, string][]> = {};
  WEEKDAYS.forEach((day, n) => {
    if (hours[day]) out[n + 1] = hours[day];
  });
  return out as WeeklyHours;
}

export function schedulingRoutes(service: SchedulingRequests): RouteDefinition<any, any, any>[] {
  const view = (r: SchedulingRequest & { url: string; booked?: TimeRange }): z.output<typeof schedulingRequestSchema> => ({
    id: r.id,
    object: 'scheduling_request',
    application_id: r.applicationId,
    status: r.status,
    cancelled_by: r.cancellation?.by ?? null,
    cancellation_reason: r.cancellation?.reason ?? null,
    cancelled_at: r.cancellation?.at.toISOString() ?? null,
    url: r.url,
    booked: r.booked ? { start: r.booked.start.toISOString(), end: r.booked.end.toISOString() } : null,
    duration_minutes: r.durationMinutes,
    window: { start: r.window.start.toISOString(), end: r.window.end.toISOString() },
    timezone: r.timezone,
    email_run_id: r.emailRunId,
    sms_run_id: r.smsRunId,
    expires_at: r.linkExpiresAt.toISOString(),
    created_at: r.createdAt.toISOString(),
  });
  return [
    defineRoute({
      method: 'post',
      path: '/requests',
      operationId: 'createSchedulingRequest',
      summary:
        'Ask the candidate to pick an interview time (scheduling.interview_scheduling): open times from the interviewers’ calendars and working hours, a signed link by email (and SMS)',
      tags: ['scheduling'],
      auth: ['organization'],
      idempotent: true,
      body: createSchedulingRequestBody,
      status: 201,
      response: schedulingRequestSchema,
      // 403 license_required; 404 connection_not_found; 409 connection_not_verified; 503 a calendar did not answer.
      errors: [403, 404, 409, 503],
      handler: async ({ principal, body }) =>
        reply(
          201,
          view(
            await service.create(orgId(principal), {
              applicationId: body.application_id,
              ...(body.title ? { title: body.title } : {}),
              candidate: {
                name: body.candidate.name,
                email: body.candidate.email,
                timezone: body.candidate.timezone,
                ...(body.candidate.phone ? { phone: body.candidate.phone } : {}),
                ...(body.candidate.language ? { language: body.candidate.language } : {}),
              },
              interviewers: body.interviewers.map((i) => ({
                name: i.name,
                email: i.email,
                connectionId: i.calendar_connection_id,
                ...(i.calendar_url ? { calendarUrl: i.calendar_url } : {}),
                timezone: i.timezone,
                hours: weeklyHours(i.working_hours),
              })),
              durationMinutes: body.duration_minutes,
              window: { start: new Date(body.window.start), end: new Date(body.window.end) },
              ...(body.organizer ? { organizer: body.organizer } : {}),
            }),
          ),
        ),
    }),
    defineRoute({
      method: 'get',
      path: '/requests/:request_id',
      operationId: 'getSchedulingRequest',
      summary: 'One scheduling request: its status, the booked time, the runs that sent the link',
      tags: ['scheduling'],
      auth: ['organization'],
      params: z.object({ request_id: z.string().max(100) }),
      response: schedulingRequestSchema,
      handler: async ({ principal, params }) => view(await service.get(orgId(principal), params.request_id)),
    }),
    defineRoute({
      method: 'post',
      path: '/requests/:request_id/cancel',
      operationId: 'cancelSchedulingRequest',
      summary:
        'Withdraw a scheduling request: a booked interview leaves the interviewers’ calendars and the candidate gets an iTIP CANCEL (interview.canceled, cancelled_by host); the link then says it was withdrawn. Idempotent',
      tags: ['scheduling'],
      auth: ['organization'],
      params: z.object({ request_id: z.string().max(100) }),
      body: cancelSchedulingRequestBody,
      response: schedulingRequestSchema,
      // 404 scheduling_request not found; 503 a calendar did not answer (the request is cancelled: call again to finish).
      errors: [404, 503],
      handler: async ({ principal, params, body }) => view(await service.withdraw(orgId(principal), params.request_id, body.reason ?? null)),
    }),
  ];
}
