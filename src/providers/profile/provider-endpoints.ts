/** Where the profile provider lives and how we identify ourselves to it. */
export interface ProviderEndpoints {
  authorizeUrl: string;
  tokenUrl: string;
  profileUrl: string;
  clientId: string;
  clientSecret: string;
  scopes: string[];
  /** Deadline of each request to the provider. */
  timeoutMs?: number;
}

export const PROFILE_PROVIDER_TIMEOUT_DEFAULT_MS = 5000;
