/**
 * The profile provider port. Implementations: src/features/profiles/provider/ (an OAuth 2.0
 * provider configured by env, also used against the built-in sandbox in src/features/sandbox-provider/).
 * Outages and bad answers surface as DomainError kind 'upstream' (retryable); a
 * rejected token as ProviderAuthorizationError, so callers can refresh.
 */
import type { ProviderProfile, ProviderTokens } from './provider-profile';

export class ProviderAuthorizationError extends Error {
  constructor(
    message: string,
    /** The provider's OAuth error code (invalid_grant, invalid_token), when it gave one. */
    readonly providerError?: string,
  ) {
    super(message);
    this.name = 'ProviderAuthorizationError';
  }
}

export interface ProfileProvider {
  fetchProfile(accessToken: string): Promise<ProviderProfile>;
  refresh(refreshToken: string): Promise<ProviderTokens>;
}

export const PROFILE_PROVIDER = Symbol('ProfileProvider');
