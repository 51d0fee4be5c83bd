/**
 * The privacy feature: the candidate data registry (every store of candidate data
 * registers under CANDIDATE_DATA), exports, erasure and legal holds, and their job.
 */
import type { DependencyContainer } from 'tsyringe';
import type { Config } from '../../config';
import type { PluginModule } from '../../composition/module';
import { CONFIG, QUEUE_DEFINITIONS } from '../../composition/infrastructure';
import { deriveKey } from '../../security/key-derivation';
import type { Database } from '../../storage/database';
import { DATABASE } from '../../storage/tokens';
import { CANDIDATE_DATA, candidateStore, type CandidateDataRegistration, type CandidateSubject } from './domain/candidate-data';
import { queuedJobsStore } from './domain/queued-jobs-store';
import { JOB_QUEUE, type JobQueue, type QueueDefinition } from '../../domain/jobs/job-queue';
import { CandidateDataRegistry } from './domain/candidate-data-registry';
import { CandidateErasureService } from './domain/candidate-erasure-service';
import { CandidateExportService } from './domain/candidate-export-service';
import { LegalHoldService } from './domain/legal-hold-service';
import { PrivacyKeys } from './domain/privacy-keys';
import { PRIVACY_REQUEST_REPOSITORY } from './domain/privacy-requests';
import { CANDIDATE_DATA_REGISTRY, PRIVACY_KEYS } from './domain/tokens';
import { candidateRoutes } from './http/candidates-router';
import { CONSENT_REPOSITORY, type ConsentRepository } from './domain/consent';
import { KnexConsentRepository } from './storage/consent-repository';
import { CandidatePrivacyProcessor } from './jobs/candidate-privacy-processor';
import { coreCandidateStores } from './storage/core-stores';
import { KnexPrivacyRequestRepository } from './storage/privacy-request-repository';
import { privacyStores } from './storage/privacy-stores';
import { revokeProviderTokens } from './domain/provider-token-revocation';
import { CANDIDATE_AUTHORIZATION_REPOSITORY, type CandidateAuthorizationRepository } from '../../domain/profiles/candidate-authorization';
import { PROFILE_PROVIDER, type ProfileProvider } from '../../domain/profiles/profile-provider';
import { LOGGER, type Logger } from '../../domain/shared/logger';

/** The one line a feature adds to its register() for each store of candidate data (or table free of it). */
export function registerCandidateData(container: DependencyContainer, ...registrations: CandidateDataRegistration[]): void {
  for (const registration of registrations) container.register(CANDIDATE_DATA, { useValue: registration });
}

export const privacyModule: PluginModule = {
  name: 'privacy',
  register(container, { config }) {
    const db = container.resolve<Database>(DATABASE);
    // Resolved when an erasure runs: the profile feature registers its provider after this module.
    const revokeAuthorizations = (subject: CandidateSubject) =>
      revokeProviderTokens(
        container.resolve<CandidateAuthorizationRepository>(CANDIDATE_AUTHORIZATION_REPOSITORY),
        container.resolve<ProfileProvider>(PROFILE_PROVIDER),
        container.resolve<Logger>(LOGGER),
      )(subject);
    registerCandidateData(
      container,
      ...coreCandidateStores(db, { revokeAuthorizations }),
      candidateStore(
        queuedJobsStore(
          () => container.resolve<JobQueue>(JOB_QUEUE),
          () => [...container.resolve<ReadonlyMap<string, QueueDefinition>>(QUEUE_DEFINITIONS).keys()],
        ),
      ),
      ...privacyStores(db),
    );
    container.register(PRIVACY_KEYS, {
      useValue: new PrivacyKeys(deriveKey(config.secretKey, 'candidate-export-links'), deriveKey(config.secretKey, 'candidate-erasure-digest')),
    });
    container.registerSingleton(PRIVACY_REQUEST_REPOSITORY, KnexPrivacyRequestRepository);
    container.registerSingleton(CONSENT_REPOSITORY, KnexConsentRepository);
    // Resolved on first use, after every module has registered its stores.
    container.register(CANDIDATE_DATA_REGISTRY, {
      useFactory: (() => {
        let registry: CandidateDataRegistry | undefined;
        return (c: DependencyContainer) => (registry ??= new CandidateDataRegistry(c.resolveAll<CandidateDataRegistration>(CANDIDATE_DATA)));
      })(),
    });
    container.registerSingleton(CandidateExportService);
    container.registerSingleton(CandidateErasureService);
    container.registerSingleton(LegalHoldService);
  },
  routers: [
    {
      name: 'candidates',
      create: (container, kit) =>
        kit.build(
          'candidates',
          candidateRoutes({
            exports: container.resolve(CandidateExportService),
            erasures: container.resolve(CandidateErasureService),
            holds: container.resolve(LegalHoldService),
            keys: container.resolve<PrivacyKeys>(PRIVACY_KEYS),
            registry: () => container.resolve<CandidateDataRegistry>(CANDIDATE_DATA_REGISTRY),
            consents: container.resolve<ConsentRepository>(CONSENT_REPOSITORY),
            baseUrl: container.resolve<Config>(CONFIG).baseUrl,
          }),
        ),
    },
  ],
  processors: (container) => [container.resolve(CandidatePrivacyProcessor)],
};
