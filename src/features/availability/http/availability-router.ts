/**
 * Mounted at /v1/availability: which interviewer calendars the availability sync follows for the
 * organization, and how their last sync went (the runs themselves are GET /v1/integrations/runs).
 */
import { isoDateTime, listOf, nullableDateTime } from '../../../platform/http/common-schemas';
import type { Principal } from '../../../platform/http/principal';
import { defineRoute, z, type RouteDefinition } from '../../../platform/http/route';
import { FRESH_FOR_MS, type TrackedCalendar, type TrackedCalendarStore } from '../domain/tracked-calendar';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;

export const followedCalendarSchema = z
  .object({
    id: z.string().meta({ example: 'acal_3mZ8Qk1v0c2Yt7Rr9WbXe4Hn' }),
    object: z.literal('availability_calendar'),
    connection_id: z.string(),
    calendar_url: z.string().nullable().meta({ description: "Another calendar of the connection's account; null for the connection's own" }),
    email: z.string().meta({ description: 'Whose calendar it is (time off for this email is written into it)' }),
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

const listQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(20),
    starting_after: z.string().max(100).optional(),
  })
  .strict();

export function availabilityRoutes(calendars: TrackedCalendarStore, now: () => Date): RouteDefinition<any, any, any>[] {
  const view = (c: TrackedCalendar): z.output<typeof followedCalendarSchema> => ({
    id: c.id,
    object: 'availability_calendar',
    connection_id: c.connectionId,
    calendar_url: c.calendarUrl ?? null,
    email: c.email,
    synced_at: c.syncedAt?.toISOString() ?? null,
    full_synced_at: c.fullSyncedAt?.toISOString() ?? null,
    fresh: c.syncedAt !== undefined && now().getTime() - c.syncedAt.getTime() <= FRESH_FOR_MS,
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
  ];
}
