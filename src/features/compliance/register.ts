/**
 * Compliance over time (`background_checks.compliance_tracking`): credentials held for
 * requirements, their expiry notices on a schedule, and GET /v1/compliance.
 */
import { instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import type { PluginModule } from '../../platform/composition/plugin-module';
import { CLOCK, type Clock } from '../../kernel/clock';
import { EVENT_PUBLISHER, type EventPublisher } from '../../kernel/events';
import { ENTITLEMENTS, type Entitlements } from '../licensing/domain/entitlements';
import { NOTIFICATION_CONNECTOR, type NotificationConnector } from '../hooks/domain/connectors';
import type { Database } from '../../platform/database/database';
import { DATABASE } from '../../platform/database/tokens';
import type { BullmqJobQueue } from '../../platform/queue/bullmq-queue';
import { BULLMQ_QUEUES } from '../../composition/infrastructure';
import { candidateStore, noCandidateData } from '../privacy/domain/candidate-data';
import { registerCandidateData } from '../privacy/register';
import { tableStore } from '../privacy/storage/table-store';
import { COMPLIANCE_TRACKING, ComplianceService } from './domain/compliance-service';
import { HOLDER_LANGUAGES, type HolderLanguages } from './domain/holder-language';
import { COMPLIANCE_SETTINGS_STORE, type ComplianceSettingsStore } from './domain/compliance-settings';
import { HELD_CREDENTIAL_REPOSITORY, HELD_CREDENTIAL_VERIFIER, type HeldCredentialRepository, type HeldCredentialVerifier } from './domain/held-credential';
import { complianceRoutes } from './http/compliance-router';
import { ComplianceSweepProcessor } from './jobs/compliance-sweep';
import { scheduleComplianceSweep } from './jobs/sweep-schedule';
import { KnexComplianceSettings } from './storage/knex-compliance-settings';
import { KnexHeldCredentials } from './storage/knex-held-credentials';

/** Outside production the operator may run the sweep at a test clock's time. */
const TEST_CLOCKS = Symbol('ComplianceTestClocks');

export const complianceModule: PluginModule = {
  name: 'compliance',
  builtInActions: [COMPLIANCE_TRACKING],
  register(container, { config }) {
    const db = container.resolve<Database>(DATABASE);
    registerCandidateData(
      container,
      candidateStore(
        tableStore(db, {
          name: 'held_credentials',
          table: 'hi_held_credentials',
          // The profile's own rows, and those the host named by email (credentials.presented: its candidate id is not a profile id).
          where: (q, s) =>
            q.where({ organization_id: s.organizationId }).where((w) => {
              w.where({ profile_user_id: s.profileUserId });
              const emails = s.emails.map((e) => e.toLowerCase());
              if (emails.length) w.orWhereRaw(`lower(holder_email) IN (${emails.map(() => '?').join(', ')})`, emails);
            }),
          description:
            'Credentials a candidate holds for requirements (type, source, expiry; a verifiable credential itself, kept to verify it again), the expiry notices sent for them and their state (active, revoked, untrusted)',
        }),
      ),
    );
    registerCandidateData(container, noCandidateData('hi_compliance_settings', "Organizations' reminder schedules (days before an expiry)"));
    container.register<HeldCredentialRepository>(HELD_CREDENTIAL_REPOSITORY, {
      useFactory: instanceCachingFactory((c) => new KnexHeldCredentials(c.resolve<Database>(DATABASE))),
    });
    container.register<ComplianceSettingsStore>(COMPLIANCE_SETTINGS_STORE, {
      useFactory: instanceCachingFactory((c) => new KnexComplianceSettings(c.resolve<Database>(DATABASE))),
    });
    container.register(ComplianceService, {
      useFactory: instanceCachingFactory(
        (c) =>
          new ComplianceService(
            c.resolve<HeldCredentialRepository>(HELD_CREDENTIAL_REPOSITORY),
            c.resolve<ComplianceSettingsStore>(COMPLIANCE_SETTINGS_STORE),
            c.resolve<EventPublisher>(EVENT_PUBLISHER),
            c.resolve<Entitlements>(ENTITLEMENTS),
            () => c.resolve<Clock>(CLOCK).now(),
            // The credential checks verify kept credentials again (resolved when the sweep first runs).
            () => c.resolve<HeldCredentialVerifier>(HELD_CREDENTIAL_VERIFIER),
            // Reminder emails to holders: the organization's email connection, each an action run.
            () => c.resolve<NotificationConnector>(NOTIFICATION_CONNECTOR),
            // The holder's language where a feature stores one (employees register theirs).
            () => (c.isRegistered(HOLDER_LANGUAGES) ? c.resolve<HolderLanguages>(HOLDER_LANGUAGES) : undefined),
          ),
      ),
    });
    container.register(ComplianceSweepProcessor, { useFactory: instanceCachingFactory((c) => new ComplianceSweepProcessor(c.resolve(ComplianceService))) });
    container.register(TEST_CLOCKS, { useValue: config.env !== 'production' });
  },
  routers: [
    {
      name: 'compliance',
      create: (container, kit) =>
        kit.build('compliance', complianceRoutes(container.resolve(ComplianceService), { testClocks: container.resolve<boolean>(TEST_CLOCKS) })),
    },
  ],
  processors: (container: DependencyContainer) => [container.resolve(ComplianceSweepProcessor)],
  async start(container, { config, logger }) {
    const bullmq = container.isRegistered(BULLMQ_QUEUES) ? container.resolve<BullmqJobQueue>(BULLMQ_QUEUES) : undefined;
    const stop = await scheduleComplianceSweep(container.resolve(ComplianceSweepProcessor), config.complianceSweepIntervalSeconds * 1000, bullmq, logger);
    return async () => stop();
  },
};
