/**
 * Candidate profiles: the profile provider (the configured one, else the sandbox when it
 * is enabled, else none), the candidate authorizations (tokens sealed with the token
 * cipher), token refresh under a lock, the profile import and its processor.
 */
import { instanceCachingFactory } from 'tsyringe';
import type { Config } from '../../kernel/config';
import { LOGGER, type Logger } from '../../kernel/logger';
import { isEmbedded, type Database } from '../../platform/database/database';
import { DATABASE } from '../../platform/database/tokens';
import type { PluginModule } from '../../platform/composition/plugin-module';
import { deriveKey } from '../../platform/security/key-derivation';
import { TokenCipher } from '../../platform/security/token-cipher';
import { sandboxEndpoints } from '../sandbox-provider/sandbox-client';
import { CANDIDATE_AUTHORIZATION_REPOSITORY } from './domain/candidate-authorization';
import { ON_DEMAND_IMPORT_WAIT_MS, ProfileImporter } from './domain/profile-importer';
import { PROFILE_PROVIDER } from './domain/profile-provider';
import { REFRESH_LOCK } from './domain/refresh-lock';
import { PROFILE_SNAPSHOT_REPOSITORY } from './domain/snapshot-repository';
import { TokenRefresher } from './domain/token-refresher';
import { ProfileImportProcessor } from './jobs/profile-import';
import { OAuthProfileProvider } from './provider/oauth-profile-provider';
import type { ProviderEndpoints } from './provider/provider-endpoints';
import { UnconfiguredProfileProvider } from './provider/unconfigured-provider';
import { AdvisoryRefreshLock } from './storage/advisory-refresh-lock';
import { KnexCandidateAuthorizationRepository, TOKEN_CIPHER } from './storage/candidate-authorization-repository';
import { InProcessLock } from './storage/in-process-lock';
import { KnexProfileSnapshotRepository } from './storage/profile-snapshot-repository';

/** The configured provider, else the sandbox when it is enabled, else none. */
export function providerEndpoints(config: Config): ProviderEndpoints | undefined {
  if (config.profileProvider) return { ...config.profileProvider, timeoutMs: config.profileProviderTimeoutMs };
  return config.sandboxProviderEnabled ? sandboxEndpoints(config) : undefined;
}

export const profilesModule: PluginModule = {
  name: 'profiles',
  register(container, { config }) {
    const endpoints = providerEndpoints(config);
    container.register(PROFILE_PROVIDER, {
      useFactory: instanceCachingFactory((c) =>
        endpoints ? new OAuthProfileProvider(endpoints, c.resolve<Logger>(LOGGER)) : new UnconfiguredProfileProvider(),
      ),
    });
    container.register(TOKEN_CIPHER, { useValue: new TokenCipher(deriveKey(config.secretKey, 'oauth-token-encryption')) });
    container.register(ON_DEMAND_IMPORT_WAIT_MS, { useValue: config.profileImportWaitMs });
    container.registerSingleton(CANDIDATE_AUTHORIZATION_REPOSITORY, KnexCandidateAuthorizationRepository);
    container.registerSingleton(PROFILE_SNAPSHOT_REPOSITORY, KnexProfileSnapshotRepository);
    // Embedded mode is one process (PGlite has no advisory locks across connections): an in-process lock serves.
    container.register(REFRESH_LOCK, {
      useFactory: instanceCachingFactory((c) => {
        const db = c.resolve<Database>(DATABASE);
        return isEmbedded(db) ? new InProcessLock() : new AdvisoryRefreshLock(db);
      }),
    });
    container.registerSingleton(TokenRefresher);
    container.registerSingleton(ProfileImporter);
  },
  processors: (container) => [container.resolve(ProfileImportProcessor)],
};
