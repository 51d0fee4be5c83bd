import type { ProfileProviderConfig } from '../../config';

/** Where the profile provider lives and how we identify ourselves to it (the configured provider, or the sandbox). */
export interface ProviderEndpoints extends ProfileProviderConfig {
  /** Deadline of each request to the provider. */
  timeoutMs?: number;
}

/** The three endpoints, once discovery (if configured) has filled them in. */
export interface ResolvedEndpoints {
  authorizeUrl: string;
  tokenUrl: string;
  profileUrl: string;
}

export const PROFILE_PROVIDER_TIMEOUT_DEFAULT_MS = 5000;
