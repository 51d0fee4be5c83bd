/**
 * The privacy feature: the candidate data registry (every store of candidate data
 * registers under CANDIDATE_DATA), exports, erasure and legal holds, and their job.
 */
import { instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import { OPERATIONAL_RECORD_PRUNERS, OPERATIONAL_RETENTION, type OperationalRecordPruner } from './domain/operational-retention';
import type { Config } from '../../kernel/config';
import type { PluginModule } from '../../platform/composition/plugin-module';
import { BULLMQ_QUEUES, CONFIG, QUEUE_DEFINITIONS } from '../../composition/infrastructure';
import { deriveKey } from '../../platform/security/key-derivation';
import type { Database } from '../../platform/database/database';
import { DATABASE } from '../../platform/database/tokens';
import { CANDIDATE_DATA, candidateStore, type CandidateDataRegistration, type CandidateSubject } from './domain/candidate-data';
import { queuedJobsStore } from './domain/queued-jobs-store';
import { JOB_QUEUE, type JobQueue, type QueueDefinition } from '../../kernel/job-queue';
import { CandidateDataRegistry } from './domain/candidate-data-registry';
import { CandidateErasureService } from './domain/candidate-erasure-service';
import { CandidateExportService } from './domain/candidate-export-service';
import { LegalHoldService } from './domain/legal-hold-service';
import { CANDIDATE_HIRE_REPOSITORY, CandidateHireService } from './domain/candidate-hires';
import { KnexCandidateHireRepository } from './storage/candidate-hire-repository';
import { PrivacyKeys } from './domain/privacy-keys';
import { PRIVACY_REQUEST_REPOSITORY } from './domain/privacy-requests';
import { CANDIDATE_DATA_REGISTRY, PRIVACY_KEYS } from './domain/tokens';
import { candidateRoutes } from './http/candidates-router';
import { CONSENT_REPOSITORY, type ConsentRepository } from './domain/consent';
import { KnexConsentRepository } from './storage/consent-repository';
import { CandidatePrivacyProcessor, RETENTION_JOB } from './jobs/candidate-privacy-processor';
import { RETENTION_REPOSITORY, type RetentionRepository } from './domain/retention';
import { RETENTION_METRICS, RetentionSweep, type RetentionMetrics } from './domain/retention-sweep';
import { retentionRoutes } from './http/retention-router';
import { KnexRetentionRepository } from './storage/retention-repository';
import { prometheusRetentionMetrics } from './storage/retention-metrics';
import { PRIVACY_QUEUE } from './domain/privacy-requests';
import { METRICS, type PluginMetrics } from '../../platform/observability/metrics';
import type { BullmqJobQueue } from '../../platform/queue/bullmq-queue';

const RETENTION_SCHEDULER_ID = 'retention-daily';
const RETENTION_EVERY_MS = 24 * 3600_000;
import { coreCandidateStores } from './storage/core-stores';
import { KnexPrivacyRequestRepository } from './storage/privacy-request-repository';
import { privacyStores } from './storage/privacy-stores';
import { revokeProviderTokens } from './domain/provider-token-revocation';
import { CANDIDATE_AUTHORIZATION_REPOSITORY, type CandidateAuthorizationRepository } from '../profiles/domain/candidate-authorization';
import { PROFILE_PROVIDER, type ProfileProvider } from '../profiles/domain/profile-provider';
import { LOGGER, type Logger } from '../../kernel/logger';

/** The one line a feature adds to its register() for each store of candidate data (or table free of it). */
/** A feature's pruner of operational records, run by the daily retention pass (domain/operational-retention.ts). */
export function registerOperationalPruner(container: DependencyContainer, pruner: (c: DependencyContainer) => OperationalRecordPruner): void {
  container.register(OPERATIONAL_RECORD_PRUNERS, { useFactory: instanceCachingFactory(pruner) });
}

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
    container.registerSingleton(RETENTION_REPOSITORY, KnexRetentionRepository);
    container.register(RETENTION_METRICS, {
      useFactory: (() => {
        let metrics: RetentionMetrics | undefined;
        return (c: DependencyContainer) => (metrics ??= prometheusRetentionMetrics(c.resolve<PluginMetrics>(METRICS).registry));
      })(),
    });
    container.register(OPERATIONAL_RETENTION, {
      useValue: () => (container.isRegistered(OPERATIONAL_RECORD_PRUNERS) ? container.resolveAll<OperationalRecordPruner>(OPERATIONAL_RECORD_PRUNERS) : []),
    });
    container.registerSingleton(RetentionSweep);
    container.registerSingleton(CandidateExportService);
    container.registerSingleton(CandidateErasureService);
    container.registerSingleton(LegalHoldService);
    container.registerSingleton(CANDIDATE_HIRE_REPOSITORY, KnexCandidateHireRepository);
    container.registerSingleton(CandidateHireService);
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
            hires: container.resolve(CandidateHireService),
            keys: container.resolve<PrivacyKeys>(PRIVACY_KEYS),
            registry: () => container.resolve<CandidateDataRegistry>(CANDIDATE_DATA_REGISTRY),
            consents: container.resolve<ConsentRepository>(CONSENT_REPOSITORY),
            baseUrl: container.resolve<Config>(CONFIG).baseUrl,
          }),
        ),
    },
    {
      name: 'privacy',
      create: (container, kit) =>
        kit.build(
          'privacy',
          retentionRoutes({
            retention: container.resolve<RetentionRepository>(RETENTION_REPOSITORY),
            sweep: () => container.resolve(RetentionSweep),
            production: container.resolve<Config>(CONFIG).env === 'production',
          }),
        ),
    },
  ],
  processors: (container) => [container.resolve(CandidatePrivacyProcessor)],
  /** The retention pass once a day: a BullMQ job scheduler (upserted by every process), or a timer embedded. */
  async start(container, context) {
    const logger = context.logger.child({ component: 'retention' });
    const bullmq = container.isRegistered(BULLMQ_QUEUES) ? container.resolve<BullmqJobQueue>(BULLMQ_QUEUES) : undefined;
    const tick = bullmq
      ? () => bullmq.schedule(PRIVACY_QUEUE, RETENTION_SCHEDULER_ID, RETENTION_EVERY_MS, RETENTION_JOB)
      : () =>
          container
            .resolve(RetentionSweep)
            .run()
            .then(() => undefined);
    const run = () => void tick().catch((error: Error) => logger.warn({ err: error.message }, 'retention pass failed'));
    if (bullmq) run();
    const timer = setInterval(run, RETENTION_EVERY_MS);
    timer.unref();
    return () => clearInterval(timer);
  },
};
