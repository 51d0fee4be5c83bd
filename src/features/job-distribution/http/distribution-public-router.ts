/**
 * Mounted at /v1/public: each distribution channel's XML and JSON job feed (validators and
 * 304 like the organization's own feeds) and the tracked apply link its jobs point to.
 */
import { defineRoute, z, type RouteDefinition } from '../../../platform/http/route';
import { jobFeedSchema, sendFeed } from '../../job-feeds/http/job-feeds-router';
import type { JobDistribution } from '../domain/job-distribution';

// Any value is accepted: one outside the rules is no organization or channel (404), never a 400.
const channelParams = z.object({ organization_id: z.string().max(100), channel: z.string().max(100) });

export function distributionPublicRoutes(distribution: JobDistribution): RouteDefinition<any, any, any>[] {
  return [
    ...(['xml', 'json'] as const).map((format) =>
      defineRoute({
        method: 'get',
        path: `/organizations/:organization_id/channels/:channel/jobs.${format}`,
        operationId: format === 'xml' ? 'getChannelJobFeedXml' : 'getChannelJobFeedJson',
        summary: `A distribution channel's ${format.toUpperCase()} job feed (the job feed format, each job linking to the channel's tracked apply link); 404 job_feed_unavailable unless the organization holds sourcing.distribute_jobs and has the channel`,
        tags: ['job-distribution'],
        auth: [],
        params: channelParams,
        produces: format === 'xml' ? 'application/xml' : 'application/json',
        ...(format === 'json' ? { response: jobFeedSchema } : {}),
        alsoAnswers: [304],
        handler: async ({ params, req, res }) => sendFeed(req, res, await distribution.channelFeed(params.organization_id, params.channel, format)),
      }),
    ),
    defineRoute({
      method: 'get',
      path: '/organizations/:organization_id/listings/:listing_id/apply',
      operationId: 'followTrackedApplyLink',
      summary:
        "A channel's tracked apply link: counts a view and redirects (302) to the listing page with the signed `source`, which the apply request passes on; 404 tracked_link_invalid for a source not published for this listing",
      tags: ['job-distribution'],
      auth: [],
      params: z.object({ organization_id: z.string().max(100), listing_id: z.string().max(200) }),
      query: z.object({ source: z.string().max(200).optional() }),
      status: 302,
      handler: async ({ params, query, res }) => {
        const location = await distribution.follow(params.organization_id, params.listing_id, query.source);
        res.setHeader('Cache-Control', 'no-store');
        res.redirect(302, location);
        return undefined;
      },
    }),
  ];
}
