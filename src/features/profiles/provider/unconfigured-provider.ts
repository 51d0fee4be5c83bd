import type { ProfileProvider } from '../domain/profile-provider';
import type { ProviderProfile, ProviderTokens } from '../domain/provider-profile';
import { upstream } from '../../../kernel/errors';

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
