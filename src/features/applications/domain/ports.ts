import type { OutboxMessage } from '../../../kernel/outbox';
import type { ProfileApplication } from './application';

export interface ApplicationPage {
  data: ProfileApplication[];
  hasMore: boolean;
}

export interface ApplicationRepository {
  /**
   * Inserts the application and its outbox messages in one transaction. Resolves to
   * `{ duplicateOf }` instead when (organization, listing, candidate) already applied.
   */
  create(application: ProfileApplication, messages: readonly OutboxMessage[]): Promise<{ created: true } | { created: false; duplicateOf: string }>;
  find(organizationId: string, applicationId: string): Promise<ProfileApplication | undefined>;
  findById(applicationId: string): Promise<ProfileApplication | undefined>;
  findExisting(organizationId: string, listingId: string, profileUserId: string): Promise<ProfileApplication | undefined>;
  /** Newest first; `startingAfter` is the id of the last application of the previous page. */
  list(organizationId: string, listingId: string, options: { limit: number; startingAfter?: string }): Promise<ApplicationPage>;
  markDelivered(applicationId: string, at: Date): Promise<void>;
  /** Applications that came through a distribution channel, counted per channel (`source`) and listing. */
  countBySource(organizationId: string): Promise<{ source: string; listingId: string; applications: number }[]>;
}

export const APPLICATION_REPOSITORY = Symbol('ApplicationRepository');
