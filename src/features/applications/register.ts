/**
 * Profile applications: the organization's profile apply settings, the public listing read
 * the widget makes, the apply endpoint and pipeline delivery. The connect flow, profiles
 * and the sandbox provider register themselves (their own `register.ts`).
 */
import { ACCEPT_APPLICATION } from '../licensing/domain/entitlements';
import { Router } from 'express';
import type { DependencyContainer } from 'tsyringe';
import { LOGGER, type Logger } from '../../kernel/logger';
import { organizationCors } from '../../platform/http/organization-cors';
import type { ApiRouter, RouterPolicy } from '../../platform/http/route';
import type { PluginModule } from '../../platform/composition/plugin-module';
import { LISTINGS_DIRECTORY, type ListingsDirectory } from '../listings/domain/listing';
import { ORGANIZATION_REPOSITORY, type OrganizationRepository } from '../organizations/domain/ports';
import { ApplicationReader } from './domain/application-reader';
import { ApplyService } from './domain/apply-service';
import { APPLICATION_SOURCES, noApplicationSources, type ApplicationSources } from './domain/application-source';
import { APPLICANT_DETAILS, noApplicantDetails, type ApplicantDetailsReader } from './domain/applicant-details';
import { APPLICATION_SOURCING, noApplicationSourcing, type ApplicationSourcing } from './domain/application-sourcing';
import { APPLICATION_CREDENTIAL_CHECKER, type ApplicationCredentialChecker } from './domain/application-credential-check';
import { PipelineDelivery } from './domain/pipeline-delivery';
import { noSubmissionFollowUps, SUBMISSION_FOLLOW_UPS, type SubmissionFollowUps } from './domain/submission-follow-ups';
import { APPLICATION_REPOSITORY } from './domain/ports';
import { ProfileApplyAvailability } from './domain/profile-apply-availability';
import { ORIGIN_POLICY, PROFILE_APPLY_SETTINGS_REPOSITORY, type OriginPolicy } from './domain/profile-apply-settings';
import { ProfileApplySettingsService } from './domain/settings-service';
import { SNAPSHOT_APPLICATIONS } from './domain/snapshot-application';
import { APPLY_PATH, applicationRoutes } from './http/applications-router';
import { PUBLIC_LISTING_PATH, publicListingRoutes } from './http/public-listing-router';
import { LISTING_REQUIREMENTS_STORE, type ListingRequirementsStore } from '../listings/domain/credential-requirements';
import { LISTING_BACKGROUND_CHECK_POLICIES, type ListingBackgroundCheckPolicies } from '../listings/domain/background-check-policy';
import { settingsRoutes } from './http/settings-router';
import { PipelineDeliveryProcessor } from './jobs/pipeline-delivery';
import { KnexApplicationRepository } from './storage/application-repository';
import { KnexProfileApplySettingsRepository } from './storage/profile-apply-settings-repository';
import { KnexSnapshotApplicationWriter } from './storage/snapshot-application-writer';

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
  builtInActions: [ACCEPT_APPLICATION],
  register(container, { config }) {
    container.register<OriginPolicy>(ORIGIN_POLICY, { useValue: { allowLoopbackHttp: config.env !== 'production' } });

    container.registerSingleton(PROFILE_APPLY_SETTINGS_REPOSITORY, KnexProfileApplySettingsRepository);
    container.registerSingleton(APPLICATION_REPOSITORY, KnexApplicationRepository);
    container.registerSingleton(SNAPSHOT_APPLICATIONS, KnexSnapshotApplicationWriter);
    container.registerSingleton(ProfileApplySettingsService);
    container.registerSingleton(ProfileApplyAvailability);
    // The job-distribution feature replaces it with the verifier of its tracked links.
    if (!container.isRegistered(APPLICATION_SOURCES)) container.register<ApplicationSources>(APPLICATION_SOURCES, { useValue: noApplicationSources });
    // The board-applications feature replaces it with the details boards sent.
    if (!container.isRegistered(APPLICANT_DETAILS)) container.register<ApplicantDetailsReader>(APPLICANT_DETAILS, { useValue: noApplicantDetails });
    // The sourcing feature replaces it with its invitations and talent pool.
    if (!container.isRegistered(APPLICATION_SOURCING)) container.register<ApplicationSourcing>(APPLICATION_SOURCING, { useValue: noApplicationSourcing });
    // The background-checks feature replaces it with the order its listing policy asks for.
    if (!container.isRegistered(SUBMISSION_FOLLOW_UPS)) container.register<SubmissionFollowUps>(SUBMISSION_FOLLOW_UPS, { useValue: noSubmissionFollowUps });
    container.registerSingleton(ApplyService);
    container.registerSingleton(ApplicationReader);
    container.registerSingleton(PipelineDelivery);
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
            backgroundChecks: container.resolve<ListingBackgroundCheckPolicies>(LISTING_BACKGROUND_CHECK_POLICIES),
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
        const api = kit.build(
          'opportunities',
          applicationRoutes(
            container.resolve(ApplyService),
            container.resolve(ApplicationReader),
            container.resolve<ApplicationCredentialChecker>(APPLICATION_CREDENTIAL_CHECKER),
          ),
        );
        const origins = async (params: Record<string, string>) => {
          const listing = params.listing_id ? await listings.get(params.listing_id) : undefined;
          return listing ? ((await settings.find(listing.organizationId))?.allowedOrigins ?? []) : [];
        };
        return withCors(api, APPLY_PATH, origins, container.resolve<Logger>(LOGGER), kit.policy);
      },
    },
  ],
  processors: (container: DependencyContainer) => [container.resolve(PipelineDeliveryProcessor)],
};
