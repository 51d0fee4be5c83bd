import type { ProfileProviderConfig } from '../../../kernel/config';

/** Where the profile provider lives and how we identify ourselves to it (the configured provider, or the sandbox). */
export interface ProviderEndpoints extends ProfileProviderConfig {
  /** Deadline of each request to the provider. */
  timeoutMs?: number;
  /**
   * The provider's consent page can name the organization and the listing, read from the
   * authorization request's `hi_organization` and `hi_listing` parameters (the sandbox
   * does). Off for a configured provider: its consent page names our client, and a
   * listing's title is not sent to a third party.
   */
  describesRequest?: boolean;
}

/** The three endpoints, once discovery (if configured) has filled them in. */
export interface ResolvedEndpoints {
  authorizeUrl: string;
  tokenUrl: string;
  profileUrl: string;
}

export const PROFILE_PROVIDER_TIMEOUT_DEFAULT_MS = 5000;
