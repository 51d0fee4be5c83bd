/**
 * Profile applications: organization settings, the connect flow (grant + candidate
 * sessions), the sandbox provider, profile import, the apply endpoint, pipeline delivery.
 */
import { instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import { Router } from 'express';
import type { Config } from '../../kernel/config';
import { ApplicationReader } from './domain/application-reader';
import { ApplyService } from './domain/apply-service';
import { ProfileApplyAvailability } from './domain/profile-apply-availability';
import { PipelineDelivery } from './domain/pipeline-delivery';
import { APPLICATION_REPOSITORY } from './domain/ports';
import { SNAPSHOT_APPLICATIONS } from './domain/snapshot-application';
import { KnexSnapshotApplicationWriter } from './storage/snapshot-application-writer';
import { CANDIDATE_SESSIONS } from '../connect/domain/candidate-session';
import { ConnectService } from '../connect/domain/connect-service';
import { LISTINGS_DIRECTORY, type ListingsDirectory } from '../listings/domain/listing';
import { ORGANIZATION_REPOSITORY, type OrganizationRepository } from '../organizations/domain/ports';
import { CANDIDATE_AUTHORIZATION_REPOSITORY } from '../profiles/domain/candidate-authorization';
import { PROFILE_PROVIDER, type ProfileProvider } from '../profiles/domain/profile-provider';
import { ON_DEMAND_IMPORT_WAIT_MS, ProfileImporter } from '../profiles/domain/profile-importer';
import { REFRESH_LOCK } from '../profiles/domain/refresh-lock';
import { PROFILE_SNAPSHOT_REPOSITORY } from '../profiles/domain/snapshot-repository';
import { TokenRefresher } from '../profiles/domain/token-refresher';
import { ORIGIN_POLICY, PROFILE_APPLY_SETTINGS_REPOSITORY, type OriginPolicy } from './domain/profile-apply-settings';
import { ProfileApplySettingsService } from './domain/settings-service';
import { CLOCK, type Clock } from '../../kernel/clock';
import { LOGGER, type Logger } from '../../kernel/logger';
import { CONNECT_MOUNT_PATH, connectRouter, SESSION_TTL_MS } from '../connect/http/connect-router';
import { ConnectResultCodes } from '../connect/storage/connect-result-codes';
import { KnexSessionStore } from '../connect/storage/oauth-session-store';
import { CandidateSessionVerifier } from '../connect/http/candidate-session-credential';
import { organizationCors } from '../../platform/http/organization-cors';
import { CREDENTIAL_VERIFIERS } from '../../platform/http/principal';
import type { ApiRouter, RouterPolicy } from '../../platform/http/route';
import { APPLY_PATH, applicationRoutes } from './http/applications-router';
import { PUBLIC_LISTING_PATH, publicListingRoutes } from './http/public-listing-router';
import { LISTING_REQUIREMENTS_STORE, type ListingRequirementsStore } from '../listings/domain/credential-requirements';
import { settingsRoutes } from './http/settings-router';
import { OAuthProfileProvider } from '../profiles/provider/oauth-profile-provider';
import type { ProviderEndpoints } from '../profiles/provider/provider-endpoints';
import { UnconfiguredProfileProvider } from '../profiles/provider/unconfigured-provider';
import { SandboxFaults } from '../sandbox-provider/domain/faults';
import { sandboxEndpoints } from '../sandbox-provider/sandbox-client';
import { sandboxRouter } from '../sandbox-provider/http/sandbox-router';
import { SignedCandidateSessions } from '../connect/http/candidate-session-token';
import { deriveKey } from '../../platform/security/key-derivation';
import { TokenCipher } from '../../platform/security/token-cipher';
import { KnexApplicationRepository } from './storage/application-repository';
import { KnexCandidateAuthorizationRepository, TOKEN_CIPHER } from '../profiles/storage/candidate-authorization-repository';
import { AdvisoryRefreshLock } from '../profiles/storage/advisory-refresh-lock';
import { isEmbedded, type Database } from '../../platform/database/database';
import { InProcessLock } from '../profiles/storage/in-process-lock';
import { KnexProfileApplySettingsRepository } from './storage/profile-apply-settings-repository';
import { KnexProfileSnapshotRepository } from '../profiles/storage/profile-snapshot-repository';
import { DATABASE } from '../../platform/database/tokens';
import { PipelineDeliveryProcessor } from './jobs/pipeline-delivery';
import { ProfileImportProcessor } from '../profiles/jobs/profile-import';
import { CONFIG } from '../../composition/infrastructure';
import type { PluginModule } from '../../platform/composition/plugin-module';

/** The configured provider, else the sandbox when it is enabled, else none. */
export function providerEndpoints(config: Config): ProviderEndpoints | undefined {
  if (config.profileProvider) return { ...config.profileProvider, timeoutMs: config.profileProviderTimeoutMs };
  return config.sandboxProviderEnabled ? sandboxEndpoints(config) : undefined;
}

/** The OAuth client the connect flow uses for the code exchange, when a provider (or the sandbox) is there. */
function oauthProvider(container: DependencyContainer): OAuthProfileProvider | undefined {
  const provider = container.resolve<ProfileProvider>(PROFILE_PROVIDER);
  return provider instanceof OAuthProfileProvider ? provider : undefined;
}

/** Wraps a built router with organization-scoped CORS on one path. */
function withCors(
  api: ApiRouter,
  path: string,
  allowedOrigins: (params: Record<string, string>) => Promise<readonly string[]>,
  logger: Logger,
  policy: RouterPolicy,
): ApiRouter {
  const router = Router();
  // Preflights look the organization up: they spend the public per-IP budget like any public read.
  router.options(path, ...policy.before, policy.limitPublic);
  router.all(path, organizationCors(allowedOrigins, logger));
  router.use(api.router);
  router.use(policy.onError);
  return { ...api, router };
}

export const profileApplicationsModule: PluginModule = {
  name: 'profile-applications',
  register(container, { config }) {
    const endpoints = providerEndpoints(config);
    container.register(PROFILE_PROVIDER, {
      useFactory: instanceCachingFactory((c) =>
        endpoints ? new OAuthProfileProvider(endpoints, c.resolve<Logger>(LOGGER)) : new UnconfiguredProfileProvider(),
      ),
    });
    container.register(TOKEN_CIPHER, { useValue: new TokenCipher(deriveKey(config.secretKey, 'oauth-token-encryption')) });
    container.register(CANDIDATE_SESSIONS, {
      useFactory: instanceCachingFactory((c) => new SignedCandidateSessions(deriveKey(config.secretKey, 'candidate-session-signing'), c.resolve<Clock>(CLOCK))),
    });
    container.register<OriginPolicy>(ORIGIN_POLICY, { useValue: { allowLoopbackHttp: config.env !== 'production' } });
    container.register(ON_DEMAND_IMPORT_WAIT_MS, { useValue: config.profileImportWaitMs });
    container.register(SandboxFaults, { useValue: new SandboxFaults(config.env === 'production') });

    container.registerSingleton(PROFILE_APPLY_SETTINGS_REPOSITORY, KnexProfileApplySettingsRepository);
    container.registerSingleton(CANDIDATE_AUTHORIZATION_REPOSITORY, KnexCandidateAuthorizationRepository);
    container.registerSingleton(PROFILE_SNAPSHOT_REPOSITORY, KnexProfileSnapshotRepository);
    container.registerSingleton(APPLICATION_REPOSITORY, KnexApplicationRepository);
    container.registerSingleton(SNAPSHOT_APPLICATIONS, KnexSnapshotApplicationWriter);
    container.registerSingleton(ProfileApplySettingsService);
    container.register(REFRESH_LOCK, {
      useFactory: instanceCachingFactory((c) => {
        const db = c.resolve<Database>(DATABASE);
        return isEmbedded(db) ? new InProcessLock() : new AdvisoryRefreshLock(db);
      }),
    });
    container.registerSingleton(TokenRefresher);
    container.registerSingleton(ProfileImporter);
    container.registerSingleton(ProfileApplyAvailability);
    container.registerSingleton(ConnectService);
    container.registerSingleton(ApplyService);
    container.registerSingleton(ApplicationReader);
    container.registerSingleton(PipelineDelivery);
    container.register(CREDENTIAL_VERIFIERS, { useClass: CandidateSessionVerifier });
  },
  routers: [
    {
      name: 'organization-settings',
      create: (container, kit) => kit.build('organization-settings', settingsRoutes(container.resolve(ProfileApplySettingsService))),
    },
    {
      name: 'public',
      create: (container, kit) => {
        const settings = container.resolve(ProfileApplySettingsService);
        const api = kit.build(
          'public',
          publicListingRoutes({
            listings: container.resolve<ListingsDirectory>(LISTINGS_DIRECTORY),
            availability: container.resolve(ProfileApplyAvailability),
            organizations: container.resolve<OrganizationRepository>(ORGANIZATION_REPOSITORY),
            requirements: container.resolve<ListingRequirementsStore>(LISTING_REQUIREMENTS_STORE),
          }),
        );
        const origins = async (params: Record<string, string>) => (await settings.find(params.organization_id ?? ''))?.allowedOrigins ?? [];
        return withCors(api, PUBLIC_LISTING_PATH, origins, container.resolve<Logger>(LOGGER), kit.policy);
      },
    },
    {
      name: 'opportunities',
      create: (container, kit) => {
        const settings = container.resolve(ProfileApplySettingsService);
        const listings = container.resolve<ListingsDirectory>(LISTINGS_DIRECTORY);
        const api = kit.build('opportunities', applicationRoutes(container.resolve(ApplyService), container.resolve(ApplicationReader)));
        const origins = async (params: Record<string, string>) => {
          const listing = params.listing_id ? await listings.get(params.listing_id) : undefined;
          return listing ? ((await settings.find(listing.organizationId))?.allowedOrigins ?? []) : [];
        };
        return withCors(api, APPLY_PATH, origins, container.resolve<Logger>(LOGGER), kit.policy);
      },
    },
    {
      name: 'connect',
      create: (container, kit) =>
        connectRouter({
          config: container.resolve<Config>(CONFIG),
          sessionStore: new KnexSessionStore(container.resolve<Database>(DATABASE), SESSION_TTL_MS),
          resultCodes: new ConnectResultCodes(container.resolve<Database>(DATABASE)),
          provider: oauthProvider(container),
          connect: container.resolve(ConnectService),
          kit,
          logger: container.resolve<Logger>(LOGGER),
          mountPath: `${container.resolve<Config>(CONFIG).mountPath}${CONNECT_MOUNT_PATH}`,
        }),
    },
    {
      name: 'sandbox-provider',
      create: (container, kit) =>
        sandboxRouter({ config: container.resolve<Config>(CONFIG), db: container.resolve<Database>(DATABASE), faults: container.resolve(SandboxFaults), kit }),
    },
  ],
  processors: (container: DependencyContainer) => [container.resolve(ProfileImportProcessor), container.resolve(PipelineDeliveryProcessor)],
};
