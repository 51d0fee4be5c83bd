/** Mounted at /v1/events: the organization's events, kept EVENT_RETENTION_DAYS, to catch up without webhooks. */
import type { EventLog, PluginEvent } from '../domain/event';
import { notFound } from '../../../kernel/errors';
import type { Principal } from '../../../platform/http/principal';
import { defineRoute, z, type RouteDefinition } from '../../../platform/http/route';
import { eventListSchema, eventSchema } from './event-schemas';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;

export function eventView(event: PluginEvent): z.output<typeof eventSchema> {
  return {
    id: event.id,
    object: 'event',
    type: event.type,
    sequence: event.sequence,
    created_at: event.createdAt.toISOString(),
    data: event.data,
  };
}

const time = z.iso.datetime({ offset: true });

const listQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(10),
    starting_after: z.string().max(100).optional(),
    /** One type, or several separated by commas. */
    type: z
      .string()
      .max(1000)
      .regex(/^[a-z0-9_.,]+$/, 'event types separated by commas')
      .optional(),
    created_gte: time.optional(),
    created_lt: time.optional(),
  })
  .strict();

export function eventRoutes(events: EventLog): RouteDefinition<any, any, any>[] {
  return [
    defineRoute({
      method: 'get',
      path: '/',
      operationId: 'listEvents',
      summary:
        'Events, newest first (highest sequence first); cursor pagination (limit, starting_after), filters type (comma-separated) and created_gte/created_lt',
      tags: ['events'],
      auth: ['organization'],
      query: listQuery,
      response: eventListSchema,
      handler: async ({ principal, query }) => {
        const page = await events.list(orgId(principal), {
          limit: query.limit,
          startingAfter: query.starting_after,
          types: query.type?.split(',').filter(Boolean),
          createdGte: query.created_gte ? new Date(query.created_gte) : undefined,
          createdLt: query.created_lt ? new Date(query.created_lt) : undefined,
        });
        return { object: 'list', data: page.data.map(eventView), has_more: page.hasMore, url: '/v1/events' } satisfies z.output<typeof eventListSchema>;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/:event_id',
      operationId: 'getEvent',
      summary: 'One event',
      tags: ['events'],
      auth: ['organization'],
      params: z.object({ event_id: z.string().max(100) }),
      response: eventSchema,
      handler: async ({ principal, params }) => {
        const event = await events.find(orgId(principal), params.event_id);
        if (!event) throw notFound('event', params.event_id);
        return eventView(event);
      },
    }),
  ];
}
