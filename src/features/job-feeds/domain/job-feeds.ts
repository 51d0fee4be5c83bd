/**
 * What the public job feed routes serve: an organization's open listings as feeds, each
 * with a validator (ETag over the bytes, Last-Modified from the latest listing change,
 * closes included) so crawlers fetch only what changed. Only organizations holding
 * `job_boards.post_jobs`, on a host whose listings the plugin can list, with a listing page
 * URL configured; every other case answers one 404, nothing to probe.
 */
import { createHash } from 'node:crypto';
import { DomainError, notFound } from '../../../kernel/errors';
import type { Clock } from '../../../kernel/clock';
import type { Entitlements } from '../../licensing/domain/entitlements';
import type { Listing } from '../../listings/domain/listing';
import type { ListingsManager } from '../../listings/domain/listing-management';
import type { OrganizationRepository } from '../../organizations/domain/ports';
import { jsonFeed, sitemap, xmlFeed, type FeedInput } from './feed-documents';
import { listingUrl, toJobPosting, type JobPosting } from './job-posting';

/** job_boards.post_jobs: this feature publishes the feeds itself (docs/job-feeds.md), a built-in action. */
export const POST_JOBS = 'job_boards.post_jobs';

/** The most listings one feed carries; the oldest beyond it are left out (documented). */
export const MAX_FEED_LISTINGS = 5_000;
const PAGE = 100;

export type FeedFormat = 'xml' | 'json' | 'sitemap';

export interface FeedDocument {
  body: string;
  contentType: string;
  etag: string;
  lastModified: Date;
}

/** What makes a feed a channel's: the license it needs and the tracked link of each job. */
export interface ChannelFeed {
  action: string;
  /** Checked after the license: false answers the same 404 as everything else. */
  exists: () => Promise<boolean>;
  jobUrl: (listingId: string) => string;
}

export const feedUnavailable = () => new DomainError('not_found', 'job_feed_unavailable', 'This organization publishes no job feed (docs/job-feeds.md)');

export interface JobFeedsDeps {
  entitlements: Entitlements;
  /** Absent on hosts that own their listings without letting the plugin list them. */
  listings: ListingsManager | undefined;
  organizations: OrganizationRepository;
  clock: Clock;
  /** JOB_FEEDS_LISTING_URL. */
  listingUrlTemplate: string | undefined;
  publisher: string;
  /** The plugin's public URL of an organization's XML feed. */
  feedUrl: (organizationId: string) => string;
}

const CONTENT_TYPES: Record<FeedFormat, string> = {
  xml: 'application/xml; charset=utf-8',
  json: 'application/json; charset=utf-8',
  sitemap: 'application/xml; charset=utf-8',
};

export const JOB_FEEDS = Symbol('JobFeeds');

export class JobFeeds {
  constructor(private readonly deps: JobFeedsDeps) {}

  /**
   * `channel`: a distribution channel's feed (sourcing.distribute_jobs), licensed by its own
   * action and linking each job to the channel's tracked apply link.
   */
  async feed(organizationId: string, format: FeedFormat, channel?: ChannelFeed): Promise<FeedDocument> {
    const { input, lastModified } = await this.load(organizationId, channel);
    const body = format === 'xml' ? xmlFeed(input) : format === 'sitemap' ? sitemap(input) : `${JSON.stringify(jsonFeed(input))}\n`;
    return { body, contentType: CONTENT_TYPES[format], etag: etagOf(body), lastModified };
  }

  /** The JSON-LD the listing's page embeds; 404 once the listing is closed. */
  async posting(organizationId: string, listingId: string): Promise<{ posting: JobPosting; etag: string; lastModified: Date }> {
    const { template, name, manager } = await this.publishing(organizationId);
    const listing = await manager.find(organizationId, listingId);
    if (!listing || listing.status !== 'open') throw notFound('listing', listingId);
    const now = this.deps.clock.now();
    const posting = toJobPosting(listing, { organizationName: name, listingUrl: listingUrl(template, organizationId, listing.id), now });
    return { posting, etag: etagOf(JSON.stringify(posting)), lastModified: listing.updatedAt ?? listing.createdAt ?? now };
  }

  private async publishing(organizationId: string, action = POST_JOBS): Promise<{ template: string; name: string; manager: ListingsManager }> {
    const { listings: manager, listingUrlTemplate: template } = this.deps;
    if (!manager || !template) throw feedUnavailable();
    // The entitlement is asked only of organizations that exist: an unknown id is the same 404.
    const organization = await this.deps.organizations.findById(organizationId);
    if (!organization || !(await this.deps.entitlements.isActive(organizationId, action))) throw feedUnavailable();
    return { template, name: organization.name, manager };
  }

  private async load(organizationId: string, channel?: ChannelFeed): Promise<{ input: FeedInput; lastModified: Date }> {
    const { template, name, manager } = await this.publishing(organizationId, channel?.action);
    if (channel && !(await channel.exists())) throw feedUnavailable();
    const now = this.deps.clock.now();
    // Every listing, closed ones included: a close must move Last-Modified forward too.
    const open: Listing[] = [];
    let latest = 0;
    let startingAfter: string | undefined;
    for (let seen = 0; seen < MAX_FEED_LISTINGS * 2; seen += PAGE) {
      const page = await manager.list(organizationId, { limit: PAGE, ...(startingAfter ? { startingAfter } : {}) });
      for (const listing of page.data) {
        latest = Math.max(latest, (listing.updatedAt ?? listing.createdAt ?? new Date(0)).getTime());
        if (listing.status === 'open' && open.length < MAX_FEED_LISTINGS) open.push(listing);
      }
      if (!page.hasMore || page.data.length === 0) break;
      startingAfter = page.data[page.data.length - 1]!.id;
    }
    // validThrough rolls daily: the documents change at midnight UTC even when no listing does.
    const dayStart = Math.floor(now.getTime() / 86_400_000) * 86_400_000;
    const lastModified = new Date(Math.floor(Math.max(latest, dayStart) / 1000) * 1000);
    const input: FeedInput = {
      organizationId,
      organizationName: name,
      listingUrlTemplate: template,
      listings: open,
      now,
      publisher: this.deps.publisher,
      feedUrl: this.deps.feedUrl(organizationId),
      ...(channel ? { jobUrl: channel.jobUrl } : {}),
    };
    return { input, lastModified };
  }
}

const etagOf = (body: string) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
