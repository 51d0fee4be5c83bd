/**
 * sourcing.distribute_jobs: an organization's distribution channels, each with its own XML
 * and JSON feed (the job-feeds formats) whose jobs link to tracked apply links; following a
 * link counts a view and lands on the listing page with the signed `source`, which the apply
 * request passes on, so applications carry their channel; the attribution report counts
 * both per channel and listing. Closed listings leave every channel feed at once: the feeds
 * are computed from the listings at each read, like the organization's own.
 */
import { conflict, DomainError, invalid, notFound } from '../../../kernel/errors';
import type { Clock } from '../../../kernel/clock';
import { newId } from '../../../kernel/ids';
import type { ApplicationRepository } from '../../applications/domain/ports';
import { feedUnavailable, type FeedDocument, type JobFeeds } from '../../job-feeds/domain/job-feeds';
import { listingUrl } from '../../job-feeds/domain/job-posting';
import type { Entitlements } from '../../licensing/domain/entitlements';
import type { ListingsDirectory } from '../../listings/domain/listing';
import { isListingId } from '../../listings/domain/listing-id';
import { CHANNEL_NAME, MAX_CHANNELS, type ChannelRepository, type DistributionChannel } from './channel';
import type { SourceTokens } from './source-tokens';

/** sourcing.distribute_jobs: a built-in action of this feature (channel feeds, tracked links, attribution; docs/job-distribution.md). */
export const DISTRIBUTE_JOBS = 'sourcing.distribute_jobs';

export interface JobDistributionDeps {
  channels: ChannelRepository;
  applications: Pick<ApplicationRepository, 'countBySource'>;
  feeds: JobFeeds;
  tokens: SourceTokens;
  entitlements: Entitlements;
  listings: ListingsDirectory;
  clock: Clock;
  /** JOB_FEEDS_LISTING_URL. */
  listingUrlTemplate: string | undefined;
  /** The plugin's public URLs: a channel's feeds and a tracked apply link. */
  urls: {
    feed: (organizationId: string, channel: string, file: 'jobs.xml' | 'jobs.json') => string;
    trackedLink: (organizationId: string, listingId: string, source: string) => string;
  };
}

export interface ListingAttribution {
  listingId: string;
  views: number;
  applications: number;
}

export interface ChannelAttribution {
  channel: string;
  /** false for a deleted channel whose links still brought views or applications. */
  active: boolean;
  views: number;
  applications: number;
  listings: ListingAttribution[];
}

export const trackedLinkInvalid = () =>
  new DomainError('not_found', 'tracked_link_invalid', 'This apply link was not published by the organization for this listing');

export class JobDistribution {
  constructor(private readonly deps: JobDistributionDeps) {}

  async createChannel(organizationId: string, name: string): Promise<DistributionChannel> {
    if (!CHANNEL_NAME.test(name)) throw invalid('parameter_invalid', 'name: 1–40 lowercase letters, digits, - and _, starting with a letter or digit', 'name');
    if ((await this.deps.channels.list(organizationId)).length >= MAX_CHANNELS) {
      throw conflict('channel_limit_reached', `An organization has at most ${MAX_CHANNELS} channels`);
    }
    const channel: DistributionChannel = { id: newId('dch'), organizationId, name, createdAt: this.deps.clock.now() };
    if (!(await this.deps.channels.create(channel))) throw conflict('channel_exists', `A channel named '${name}' exists`, { param: 'name' });
    return channel;
  }

  listChannels(organizationId: string): Promise<DistributionChannel[]> {
    return this.deps.channels.list(organizationId);
  }

  async deleteChannel(organizationId: string, channelId: string): Promise<void> {
    if (!(await this.deps.channels.delete(organizationId, channelId))) throw notFound('distribution_channel', channelId);
  }

  feedUrls(channel: DistributionChannel) {
    return {
      xml: this.deps.urls.feed(channel.organizationId, channel.name, 'jobs.xml'),
      json: this.deps.urls.feed(channel.organizationId, channel.name, 'jobs.json'),
    };
  }

  /** A channel's feed: 404 job_feed_unavailable without the license, the listing page URL, or the channel. */
  channelFeed(organizationId: string, channel: string, format: 'xml' | 'json'): Promise<FeedDocument> {
    return this.deps.feeds.feed(organizationId, format, {
      action: DISTRIBUTE_JOBS,
      exists: async () => CHANNEL_NAME.test(channel) && (await this.deps.channels.findByName(organizationId, channel)) !== undefined,
      jobUrl: (listingId) => this.deps.urls.trackedLink(organizationId, listingId, this.deps.tokens.issue(organizationId, listingId, channel)),
    });
  }

  /**
   * Following a tracked link: counts a view of an open listing and answers where to send the
   * visitor: the listing page, with the `source` for the apply request to pass on.
   */
  async follow(organizationId: string, listingId: string, source: string | undefined): Promise<string> {
    const template = this.deps.listingUrlTemplate;
    if (!template || !(await this.deps.entitlements.isActive(organizationId, DISTRIBUTE_JOBS))) throw feedUnavailable();
    const listing = isListingId(listingId) ? await this.deps.listings.get(listingId) : undefined;
    if (!listing || listing.organizationId !== organizationId) throw notFound('listing', listingId);
    const channel = source === undefined ? undefined : this.deps.tokens.channelOf(organizationId, listingId, source);
    if (!channel || source === undefined) throw trackedLinkInvalid();
    // A closed listing's page says so; only views of open listings count.
    if (listing.status === 'open') await this.deps.channels.countView(organizationId, channel, listingId);
    const page = new URL(listingUrl(template, organizationId, listingId));
    page.searchParams.set('source', source);
    return page.toString();
  }

  /** Views and applications per channel and listing; every current channel, and deleted ones that still count. */
  async attribution(organizationId: string): Promise<ChannelAttribution[]> {
    const [channels, views, applications] = await Promise.all([
      this.deps.channels.list(organizationId),
      this.deps.channels.views(organizationId),
      this.deps.applications.countBySource(organizationId),
    ]);
    const byChannel = new Map<string, ChannelAttribution>();
    const channelOf = (name: string) => {
      let entry = byChannel.get(name);
      if (!entry) byChannel.set(name, (entry = { channel: name, active: false, views: 0, applications: 0, listings: [] }));
      return entry;
    };
    const listingOf = (entry: ChannelAttribution, listingId: string) => {
      let row = entry.listings.find((l) => l.listingId === listingId);
      if (!row) entry.listings.push((row = { listingId, views: 0, applications: 0 }));
      return row;
    };
    for (const channel of channels) channelOf(channel.name).active = true;
    for (const v of views) {
      const entry = channelOf(v.channel);
      entry.views += v.views;
      listingOf(entry, v.listingId).views += v.views;
    }
    for (const a of applications) {
      const entry = channelOf(a.source);
      entry.applications += a.applications;
      listingOf(entry, a.listingId).applications += a.applications;
    }
    const result = [...byChannel.values()].sort((x, y) => x.channel.localeCompare(y.channel));
    for (const entry of result) entry.listings.sort((x, y) => y.applications - x.applications || y.views - x.views || x.listingId.localeCompare(y.listingId));
    return result;
  }
}
