/**
 * Mounted at /v1/availability: which interviewer calendars the availability sync follows for the
 * organization, and how their last sync went (the runs themselves are GET /v1/integrations/runs);
 * a sync now, and stop / resume following one.
 */
import { isoDateTime, listOf, nullableDateTime } from '../../../platform/http/common-schemas';
import type { Principal } from '../../../platform/http/principal';
import { defineRoute, z, type RouteDefinition } from '../../../platform/http/route';
import type { AvailabilitySync } from '../domain/availability-sync';
import { FRESH_FOR_MS, type TrackedCalendar, type TrackedCalendarStore } from '../domain/tracked-calendar';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;

export const followedCalendarSchema = z
  .object({
    id: z.string().meta({ example: 'acal_3mZ8Qk1v0c2Yt7Rr9WbXe4Hn' }),
    object: z.literal('availability_calendar'),
    connection_id: z.string(),
    calendar_url: z.string().nullable().meta({ description: "Another calendar of the connection's account; null for the connection's own" }),
    email: z.string().meta({ description: 'Whose calendar it is (time off for this email is written into it)' }),
    status: z.enum(['following', 'stopped']).meta({
      description: 'stopped: not synced and its busy times block no slot (POST …/stop; POST …/resume follows it again)',
    }),
    stopped_at: nullableDateTime,
    synced_at: nullableDateTime.meta({ description: 'The last successful sync' }),
    full_synced_at: nullableDateTime.meta({ description: 'The last full read (a sync without a usable token)' }),
    fresh: z.boolean().meta({ description: 'Whether slot computation reads this calendar from the cache now (last sync at most 15 minutes ago)' }),
    last_error_code: z
      .string()
      .nullable()
      .meta({ description: 'The code of the last failed sync since the last success (connection_unreachable, calendar_not_found, …)' }),
    created_at: isoDateTime,
  })
  .meta({ id: 'AvailabilityCalendar' });

const calendarParams = z.object({ calendar_id: z.string().max(100) });

export const calendarSyncSchema = z
  .object({
    object: z.literal('availability_sync'),
    status: z.enum(['succeeded', 'failed']),
    run_id: z.string().nullable().meta({ description: 'The action run of this sync (step calendar_sync)' }),
    error_code: z.string().nullable().meta({ description: 'Why it failed: connection_unreachable, calendar_not_found, connection_auth_failed, …' }),
    full: z.boolean().nullable().meta({ description: 'Whether the server’s answer was a full read (no usable sync token)' }),
    changed: z.number().int().nullable().meta({ description: 'Events changed since the last sync' }),
    removed: z.number().int().nullable().meta({ description: 'Events removed since the last sync' }),
    calendar: followedCalendarSchema,
  })
  .meta({ id: 'AvailabilitySync' });

const listQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(20),
    starting_after: z.string().max(100).optional(),
  })
  .strict();

export function availabilityRoutes(calendars: TrackedCalendarStore, sync: AvailabilitySync, now: () => Date): RouteDefinition<any, any, any>[] {
  const view = (c: TrackedCalendar): z.output<typeof followedCalendarSchema> => ({
    id: c.id,
    object: 'availability_calendar',
    connection_id: c.connectionId,
    calendar_url: c.calendarUrl ?? null,
    email: c.email,
    status: c.stoppedAt ? 'stopped' : 'following',
    stopped_at: c.stoppedAt?.toISOString() ?? null,
    synced_at: c.syncedAt?.toISOString() ?? null,
    full_synced_at: c.fullSyncedAt?.toISOString() ?? null,
    fresh: !c.stoppedAt && c.syncedAt !== undefined && now().getTime() - c.syncedAt.getTime() <= FRESH_FOR_MS,
    last_error_code: c.lastErrorCode ?? null,
    created_at: c.createdAt.toISOString(),
  });
  return [
    defineRoute({
      method: 'get',
      path: '/calendars',
      operationId: 'listAvailabilityCalendars',
      summary:
        'The interviewer calendars the availability sync follows (scheduling.availability_sync), by id, with their last sync: when, whether the cache is fresh, the last failure code',
      tags: ['scheduling'],
      auth: ['organization'],
      query: listQuery,
      response: listOf(followedCalendarSchema),
      handler: async ({ principal, query }) => {
        const rows = await calendars.list(orgId(principal), { limit: query.limit, ...(query.starting_after ? { startingAfter: query.starting_after } : {}) });
        return { object: 'list' as const, data: rows.slice(0, query.limit).map(view), has_more: rows.length > query.limit, url: '/v1/availability/calendars' };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/calendars/:calendar_id/sync',
      operationId: 'syncAvailabilityCalendar',
      summary:
        'Sync one followed calendar now (the same incremental sync the job runs every 5 minutes, as its own action run) and answer its outcome; a failure is status failed with its code',
      tags: ['scheduling'],
      auth: ['organization'],
      params: calendarParams,
      response: calendarSyncSchema,
      // 403 license_required; 404 resource_missing; 409 calendar_stopped.
      errors: [403, 404, 409],
      handler: async ({ principal, params }) => {
        const { calendar, outcome } = await sync.syncNow(orgId(principal), params.calendar_id);
        return {
          object: 'availability_sync' as const,
          status: outcome.status,
          run_id: outcome.runId ?? null,
          error_code: outcome.errorCode ?? null,
          full: outcome.changes?.full ?? null,
          changed: outcome.changes?.changed ?? null,
          removed: outcome.changes?.removed ?? null,
          calendar: view(calendar),
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/calendars/:calendar_id/stop',
      operationId: 'stopAvailabilityCalendar',
      summary:
        'Stop following a calendar: no more syncs, its busy times no longer block interview slots, its cached busy times are dropped (time off still blocks). Idempotent',
      tags: ['scheduling'],
      auth: ['organization'],
      params: calendarParams,
      response: followedCalendarSchema,
      errors: [404],
      handler: async ({ principal, params }) => view(await sync.stop(orgId(principal), params.calendar_id)),
    }),
    defineRoute({
      method: 'post',
      path: '/calendars/:calendar_id/resume',
      operationId: 'resumeAvailabilityCalendar',
      summary: 'Follow a stopped calendar again: its busy times block slots (read live until the next sync, which reads it in full). Idempotent',
      tags: ['scheduling'],
      auth: ['organization'],
      params: calendarParams,
      response: followedCalendarSchema,
      errors: [404],
      handler: async ({ principal, params }) => view(await sync.resume(orgId(principal), params.calendar_id)),
    }),
  ];
}
