/**
 * Profile applications: organization settings, the connect flow (grant + candidate
 * sessions), the sandbox provider, profile import, the apply endpoint, pipeline delivery.
 */
import { instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import { Router } from 'express';
import type { Config } from '../config';
import { ApplicationReader } from '../domain/applications/application-reader';
import { ApplyService } from '../domain/applications/apply-service';
import { ProfileApplyAvailability } from '../domain/applications/profile-apply-availability';
import { PipelineDelivery } from '../domain/applications/pipeline-delivery';
import { APPLICATION_REPOSITORY } from '../domain/applications/ports';
import { SNAPSHOT_APPLICATIONS } from '../domain/applications/snapshot-application';
import { KnexSnapshotApplicationWriter } from '../storage/snapshot-application-writer';
import { CANDIDATE_SESSIONS } from '../domain/connect/candidate-session';
import { ConnectService } from '../domain/connect/connect-service';
import { LISTINGS_DIRECTORY, type ListingsDirectory } from '../domain/listings/listing';
import { ORGANIZATION_REPOSITORY, type OrganizationRepository } from '../domain/organizations/ports';
import { CANDIDATE_AUTHORIZATION_REPOSITORY } from '../domain/profiles/candidate-authorization';
import { PROFILE_PROVIDER, type ProfileProvider } from '../domain/profiles/profile-provider';
import { ON_DEMAND_IMPORT_WAIT_MS, ProfileImporter } from '../domain/profiles/profile-importer';
import { REFRESH_LOCK } from '../domain/profiles/refresh-lock';
import { PROFILE_SNAPSHOT_REPOSITORY } from '../domain/profiles/snapshot-repository';
import { TokenRefresher } from '../domain/profiles/token-refresher';
import { ORIGIN_POLICY, PROFILE_APPLY_SETTINGS_REPOSITORY, type OriginPolicy } from '../domain/settings/profile-apply-settings';
import { ProfileApplySettingsService } from '../domain/settings/settings-service';
import { CLOCK, type Clock } from '../domain/shared/clock';
import { LOGGER, type Logger } from '../domain/shared/logger';
import { CONNECT_MOUNT_PATH, connectRouter } from '../http/connect/connect-router';
import { CandidateSessionVerifier } from '../http/credentials/candidate-session';
import { organizationCors } from '../http/organization-cors';
import { CREDENTIAL_VERIFIERS } from '../http/principal';
import type { ApiRouter, RouterPolicy } from '../http/route';
import { APPLY_PATH, applicationRoutes } from '../http/routers/applications-router';
import { PUBLIC_LISTING_PATH, publicListingRoutes } from '../http/routers/public-listing-router';
import { settingsRoutes } from '../http/routers/settings-router';
import { OAuthProfileProvider } from '../providers/profile/oauth-profile-provider';
import type { ProviderEndpoints } from '../providers/profile/provider-endpoints';
import { UnconfiguredProfileProvider } from '../providers/profile/unconfigured-provider';
import { SandboxFaults } from '../sandbox/faults';
import { sandboxEndpoints } from '../sandbox/sandbox-client';
import { sandboxRouter } from '../sandbox/sandbox-router';
import { SignedCandidateSessions } from '../security/candidate-session-token';
import { deriveKey } from '../security/key-derivation';
import { TokenCipher } from '../security/token-cipher';
import { KnexApplicationRepository } from '../storage/application-repository';
import { KnexCandidateAuthorizationRepository, TOKEN_CIPHER } from '../storage/candidate-authorization-repository';
import { AdvisoryRefreshLock } from '../storage/advisory-refresh-lock';
import { isEmbedded, type Database } from '../storage/database';
import { InProcessLock } from '../storage/in-process-lock';
import { KnexProfileApplySettingsRepository } from '../storage/profile-apply-settings-repository';
import { KnexProfileSnapshotRepository } from '../storage/profile-snapshot-repository';
import { DATABASE } from '../storage/tokens';
import { PipelineDeliveryProcessor } from '../../jobs/pipeline-delivery';
import { ProfileImportProcessor } from '../../jobs/profile-import';
import { CONFIG } from './infrastructure';
import type { PluginModule } from './module';

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
          db: container.resolve<Database>(DATABASE),
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
