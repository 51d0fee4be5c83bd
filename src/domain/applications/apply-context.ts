/**
 * What an application needs to know about the candidate before the provider is asked,
 * read in one statement (one database round trip): whether (organization, listing,
 * candidate) already applied, whether the candidate authorized the organization and when,
 * and the stored snapshot. The tokens are not read: a fresh snapshot needs none.
 */
import type { ProfileSnapshot } from '../profiles/profile-snapshot';

export interface ApplyContext {
  existingApplicationId?: string;
  /** When the candidate authorized the organization; undefined when they never did (or revoked). */
  authorizedAt?: Date;
  snapshot?: ProfileSnapshot;
}

export interface ApplyContextReader {
  read(organizationId: string, listingId: string, profileUserId: string): Promise<ApplyContext>;
}

export const APPLY_CONTEXT_READER = Symbol('ApplyContextReader');
