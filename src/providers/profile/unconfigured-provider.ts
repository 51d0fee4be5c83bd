import type { ProfileProvider } from '../../domain/profiles/profile-provider';
import type { ProviderProfile, ProviderTokens } from '../../domain/profiles/provider-profile';
import { upstream } from '../../domain/shared/errors';

/** When no provider is configured and the sandbox is off: every call says so. */
export class UnconfiguredProfileProvider implements ProfileProvider {
  private fail(): never {
    throw upstream('provider_not_configured', 'No profile provider is configured (set PROFILE_PROVIDER_* or SANDBOX_PROVIDER_ENABLED=true)');
  }

  async fetchProfile(): Promise<ProviderProfile> {
    this.fail();
  }

  async refresh(): Promise<ProviderTokens> {
    this.fail();
  }
}
