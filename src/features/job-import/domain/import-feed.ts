/**
 * A feed an organization imports listings from (job_import.import_jobs): where it is, its
 * format, how often it is read, and what the last import left for the next one (the HTTP
 * validators for a conditional GET, the external ids it carried to close those that leave).
 */
import type { FeedFormat, Validators } from './feed-import';

export interface ImportFeed {
  id: string;
  organizationId: string;
  url: string;
  format: FeedFormat;
  intervalMinutes: number;
  validators: Validators;
  externalIds: string[];
  /** When the schedule imports it next. */
  nextRunAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

export interface ImportFeedChange {
  url?: string;
  format?: FeedFormat;
  intervalMinutes?: number;
}

/** Every 15 minutes at most, once a week at least. */
export const MIN_INTERVAL_MINUTES = 15;
export const MAX_INTERVAL_MINUTES = 7 * 24 * 60;
export const MAX_FEEDS_PER_ORGANIZATION = 20;

export interface ImportFeedRepository {
  create(feed: ImportFeed): Promise<void>;
  find(organizationId: string, id: string): Promise<ImportFeed | undefined>;
  list(organizationId: string, options: { limit: number; startingAfter?: string }): Promise<{ data: ImportFeed[]; hasMore: boolean }>;
  count(organizationId: string): Promise<number>;
  update(organizationId: string, id: string, change: ImportFeedChange & { nextRunAt?: Date }, at: Date): Promise<ImportFeed | undefined>;
  delete(organizationId: string, id: string): Promise<boolean>;
  /** What an import left for the next one. */
  remember(id: string, state: { validators: Validators; externalIds: string[] }, at: Date): Promise<void>;
  /** Feeds due at `now`, oldest due first; each moved to its next time in the same statement (two sweeps never take one twice). */
  claimDue(now: Date, limit: number): Promise<ImportFeed[]>;
}

export const IMPORT_FEED_REPOSITORY = Symbol('ImportFeedRepository');
