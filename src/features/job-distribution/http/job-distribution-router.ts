/** Mounted at /v1/job-distribution: an organization's distribution channels and the attribution report. */
import type { Principal } from '../../../platform/http/principal';
import { defineRoute, reply, z, type RouteDefinition } from '../../../platform/http/route';
import { isoDateTime, listOf } from '../../../platform/http/common-schemas';
import type { DistributionChannel } from '../domain/channel';
import type { JobDistribution } from '../domain/job-distribution';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;

const channelSchema = z
  .object({
    id: z.string().meta({ example: 'dch_4f9a2b7c8d1e0f3a5b6c' }),
    object: z.literal('distribution_channel'),
    name: z.string().meta({ description: 'The `source` of the applications that come through this channel', example: 'indeed' }),
    feeds: z.object({
      xml: z.string().meta({ description: "The channel's XML job feed (give this URL to the board)" }),
      json: z.string().meta({ description: "The channel's JSON job feed" }),
    }),
    created_at: isoDateTime,
  })
  .meta({ id: 'DistributionChannel' });

const deletedChannelSchema = z.object({ id: z.string(), object: z.literal('distribution_channel'), deleted: z.literal(true) });

const createBody = z
  .object({
    name: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, '1–40 lowercase letters, digits, - and _, starting with a letter or digit')
      .meta({ example: 'indeed' }),
  })
  .strict();

const counts = { views: z.number().int().meta({ description: 'Tracked apply links followed (open listings only)' }), applications: z.number().int() };

const attributionSchema = z
  .object({
    object: z.literal('job_distribution_attribution'),
    data: z.array(
      z.object({
        channel: z.string(),
        active: z.boolean().meta({ description: 'false: a deleted channel whose links still brought views or applications' }),
        ...counts,
        listings: z.array(z.object({ listing_id: z.string(), ...counts })),
      }),
    ),
  })
  .meta({ id: 'JobDistributionAttribution' });

export function jobDistributionRoutes(distribution: JobDistribution): RouteDefinition<any, any, any>[] {
  const view = (channel: DistributionChannel): z.output<typeof channelSchema> => ({
    id: channel.id,
    object: 'distribution_channel',
    name: channel.name,
    feeds: distribution.feedUrls(channel),
    created_at: channel.createdAt.toISOString(),
  });
  return [
    defineRoute({
      method: 'post',
      path: '/channels',
      operationId: 'createDistributionChannel',
      summary: 'Create a distribution channel with its own feeds and tracked apply links (409 channel_exists, channel_limit_reached)',
      tags: ['job-distribution'],
      auth: ['organization'],
      body: createBody,
      status: 201,
      response: channelSchema,
      errors: [409],
      handler: async ({ principal, body }) => reply(201, view(await distribution.createChannel(orgId(principal), body.name))),
    }),
    defineRoute({
      method: 'get',
      path: '/channels',
      operationId: 'listDistributionChannels',
      summary: "The organization's distribution channels, by name",
      tags: ['job-distribution'],
      auth: ['organization'],
      response: listOf(channelSchema),
      handler: async ({ principal }) => ({
        object: 'list' as const,
        data: (await distribution.listChannels(orgId(principal))).map(view),
        has_more: false,
        url: '/v1/job-distribution/channels',
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/channels/:channel_id',
      operationId: 'deleteDistributionChannel',
      summary: 'Delete the channel: its feeds answer 404 at once; its views and applications stay in the attribution report',
      tags: ['job-distribution'],
      auth: ['organization'],
      params: z.object({ channel_id: z.string().max(100) }),
      response: deletedChannelSchema,
      handler: async ({ principal, params }) => {
        await distribution.deleteChannel(orgId(principal), params.channel_id);
        return { id: params.channel_id, object: 'distribution_channel' as const, deleted: true as const };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/attribution',
      operationId: 'getJobDistributionAttribution',
      summary: 'Views of tracked apply links and applications per channel and listing',
      tags: ['job-distribution'],
      auth: ['organization'],
      response: attributionSchema,
      handler: async ({ principal }) => ({
        object: 'job_distribution_attribution' as const,
        data: (await distribution.attribution(orgId(principal))).map((c) => ({
          channel: c.channel,
          active: c.active,
          views: c.views,
          applications: c.applications,
          listings: c.listings.map((l) => ({ listing_id: l.listingId, views: l.views, applications: l.applications })),
        })),
      }),
    }),
  ];
}
