/**
 * Mounted at /v1/public: an organization's job feeds (XML for aggregators, JSON, sitemap)
 * and each open listing's JobPosting JSON-LD, public and cacheable, answered 304 to a
 * conditional GET whose validator still matches (ETag first, then Last-Modified).
 */
import type { Request, Response } from 'express';
import { defineRoute, z, type RouteDefinition } from '../../../platform/http/route';
import type { FeedFormat, JobFeeds } from '../domain/job-feeds';

// Any id is accepted: one outside the documented rule is simply not an organization (404), never a 400.
const organizationParams = z.object({ organization_id: z.string().max(100) });
const listingParams = z.object({ organization_id: z.string().max(100), listing_id: z.string().max(100) });

/** Crawlers may reuse a feed for five minutes, then must revalidate. */
const CACHE_CONTROL = 'public, max-age=300, must-revalidate';

export function sendFeed(req: Request, res: Response, document: { body: string; contentType: string; etag: string; lastModified: Date }): undefined {
  res.setHeader('ETag', document.etag);
  res.setHeader('Last-Modified', document.lastModified.toUTCString());
  res.setHeader('Cache-Control', CACHE_CONTROL);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // req.fresh (the `fresh` package) compares If-None-Match / If-Modified-Since with the headers above.
  if (req.fresh) {
    res.status(304).end();
    return undefined;
  }
  res.setHeader('Content-Type', document.contentType);
  res.status(200).send(document.body);
  return undefined;
}

const jobPostingSchema = z
  .object({ '@context': z.literal('https://schema.org'), '@type': z.literal('JobPosting'), title: z.string(), description: z.string(), datePosted: z.string() })
  .passthrough()
  .describe('schema.org JobPosting (JSON-LD) with the fields Google for Jobs requires and recommends');

export const jobFeedSchema = z.object({
  object: z.literal('job_feed'),
  organization: z.object({ id: z.string(), name: z.string() }),
  data: z.array(
    z.object({
      id: z.string(),
      reference_number: z.string().describe("The ATS's external id of the listing, else its id"),
      title: z.string(),
      url: z.string().describe('The listing page (JOB_FEEDS_LISTING_URL)'),
      location: z.string().nullable(),
      date_posted: z.string(),
      job_posting: jobPostingSchema,
    }),
  ),
});

const FEEDS: { format: FeedFormat; file: string; operationId: string; summary: string; produces: string }[] = [
  {
    format: 'xml',
    file: 'jobs.xml',
    operationId: 'getJobFeedXml',
    summary: "The organization's open listings as an XML job feed in the aggregators' <source><job> format (schemas/job-feed.xsd)",
    produces: 'application/xml',
  },
  {
    format: 'json',
    file: 'jobs.json',
    operationId: 'getJobFeedJson',
    summary: "The organization's open listings as a JSON feed, each with its JobPosting JSON-LD",
    produces: 'application/json',
  },
  {
    format: 'sitemap',
    file: 'sitemap.xml',
    operationId: 'getJobSitemap',
    summary: "A sitemap (sitemaps.org 0.9) of the organization's open listing pages",
    produces: 'application/xml',
  },
];

export function jobFeedRoutes(feeds: JobFeeds): RouteDefinition<any, any, any>[] {
  return [
    ...FEEDS.map((feed) =>
      defineRoute({
        method: 'get',
        path: `/organizations/:organization_id/${feed.file}`,
        operationId: feed.operationId,
        summary: `${feed.summary}; ETag/Last-Modified, 304 on a conditional GET; 404 job_feed_unavailable unless the organization holds job_boards.post_jobs`,
        tags: ['job-feeds'],
        auth: [],
        params: organizationParams,
        produces: feed.produces,
        ...(feed.format === 'json' ? { response: jobFeedSchema } : {}),
        alsoAnswers: [304],
        handler: async ({ params, req, res }) => sendFeed(req, res, await feeds.feed(params.organization_id, feed.format)),
      }),
    ),
    defineRoute({
      method: 'get',
      path: '/organizations/:organization_id/listings/:listing_id/job-posting.jsonld',
      operationId: 'getListingJobPosting',
      summary: 'An open listing\'s schema.org JobPosting JSON-LD, for the listing page to embed in <script type="application/ld+json">',
      tags: ['job-feeds'],
      auth: [],
      params: listingParams,
      produces: 'application/ld+json',
      alsoAnswers: [304],
      response: jobPostingSchema,
      handler: async ({ params, req, res }) => {
        const { posting, etag, lastModified } = await feeds.posting(params.organization_id, params.listing_id);
        return sendFeed(req, res, { body: `${JSON.stringify(posting)}\n`, contentType: 'application/ld+json; charset=utf-8', etag, lastModified });
      },
    }),
  ];
}
