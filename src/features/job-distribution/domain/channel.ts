/**
 * A distribution channel: a named place an organization distributes its listings to
 * (`indeed`, `linkedin`, a partner's name). Each channel reads its own feed, whose jobs link
 * to tracked apply links, so views and applications can be counted per channel.
 */
export interface DistributionChannel {
  id: string;
  organizationId: string;
  /** Lowercase letters, digits, `-` and `_`; it is the `source` applications carry. */
  name: string;
  createdAt: Date;
}

export const CHANNEL_NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;

/** Enough for every board an organization may distribute to, bounded so a feed list stays small. */
export const MAX_CHANNELS = 50;

/** Views of one channel's tracked links to one listing. */
export interface ChannelViews {
  channel: string;
  listingId: string;
  views: number;
}

export interface ChannelRepository {
  /** false when the organization already has a channel of that name. */
  create(channel: DistributionChannel): Promise<boolean>;
  list(organizationId: string): Promise<DistributionChannel[]>;
  findByName(organizationId: string, name: string): Promise<DistributionChannel | undefined>;
  /** false when there was no such channel of the organization. */
  delete(organizationId: string, channelId: string): Promise<boolean>;
  countView(organizationId: string, channel: string, listingId: string): Promise<void>;
  views(organizationId: string): Promise<ChannelViews[]>;
}

export const CHANNEL_REPOSITORY = Symbol('ChannelRepository');
