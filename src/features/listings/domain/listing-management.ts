/**
 * Listings the plugin's listings API may manage: a host that owns its listings table (the
 * standalone host) offers this beside its ListingsDirectory; an ATS with its own listings
 * does not, and the API then has no listing routes.
 */
import type { Listing, ListingQuestion } from './listing';

export type ListingStatus = 'open' | 'closed';

export interface ListingFields {
  title: string;
  description?: string | null;
  location?: string | null;
  questions?: ListingQuestion[];
  status?: ListingStatus;
  externalId?: string | null;
}

export type ListingChange = Partial<ListingFields>;

export interface ListingQueryOptions {
  limit: number;
  startingAfter?: string;
  status?: ListingStatus;
  externalId?: string;
}

export interface ListingsManager {
  create(organizationId: string, fields: ListingFields): Promise<Listing>;
  find(organizationId: string, listingId: string): Promise<Listing | undefined>;
  list(organizationId: string, options: ListingQueryOptions): Promise<{ data: Listing[]; hasMore: boolean }>;
  update(organizationId: string, listingId: string, change: ListingChange): Promise<Listing | undefined>;
  /** Creates or replaces the listing the ATS knows by `externalId`; one listing per id, whatever the concurrency. */
  upsertByExternalId(organizationId: string, externalId: string, fields: ListingFields): Promise<{ listing: Listing; created: boolean }>;
}

export const LISTINGS_MANAGER = Symbol('ListingsManager');
