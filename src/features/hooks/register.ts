/**
 * License-gated hooks: the handlers (declared with @HookHandlerFor), the gate and its
 * entitlement cache (invalidated across processes by the caching module's channel), the
 * interview reminders and their queue (the connectors handlers send through are the
 * action-runs feature's).
 */
import { RUN_REPLAYER } from '../action-runs/domain/run-retries';
import { ReminderRunReplayer } from '../reminders/domain/reminder-run-replayer';
import { instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import { InterviewReminderProcessor } from '../reminders/jobs/interview-reminder';
import { EntitlementCache, ENTITLEMENT_CACHE_OPTIONS, type EntitlementCacheOptions } from '../licensing/domain/entitlement-cache';
import { ENTITLEMENT_SOURCE } from '../licensing/domain/entitlement-source';
import { EntitlementSync } from '../licensing/domain/entitlement-sync';
import { HookDispatcher } from './domain/hook-dispatcher';
import { HookGate } from './domain/hook-gate';
import { SYNC_LEDGER } from './domain/sync-ledger';
import { KnexSyncLedger } from './storage/knex-sync-ledger';
import { candidateStore } from '../privacy/domain/candidate-data';
import { registerCandidateData } from '../privacy/register';
import { tableStore } from '../privacy/storage/table-store';
import { declarationOf, type GatedHookHandler } from './domain/hook-handler';
import { HOOK_REGISTRY, HookRegistry } from './domain/hook-registry';
import { EmployeeSyncHandler, VideoMeetingLinkHandler } from './domain/connector-handlers';
import { PosHireHandler, PosTerminationHandler, PosUpdateHandler } from './domain/pos-handlers';
import { PayrollChangeHandler, PayrollNewHireFileHandler, PayrollTerminationHandler } from '../payroll/domain/payroll-handlers';
import { EmployeeDeactivateHandler, EmployeeUpdateHandler, VolunteerProvisionHandler } from './domain/hris-handlers';
import { InterviewReminderHookHandler, REMINDER_HOOKS, type ReminderHookDeclaration } from '../reminders/domain/interview-reminder-handlers';
import {
  INTERVIEW_REMINDER_REPOSITORY,
  InterviewReminders,
  REMINDER_ACTIONS,
  REMINDER_OPTIONS,
  ReminderDelivery,
  type ReminderChannel,
} from '../reminders/domain/interview-reminders';
import { PAYMENT_REQUIRED, PAYMENT_STANDING, type PaymentStanding } from '../billing/domain/payment-standing';
import { ENTITLEMENTS } from '../licensing/domain/entitlements';
import { LicenseChanges } from '../licensing/domain/license-changes';
import { LOGGER, type Logger } from '../../kernel/logger';
import { EVENT_PUBLISHER, type EventPublisher } from '../../kernel/events';
import { CredentialCheckService } from '../credential-checks/domain/credential-check-service';
import { CREDENTIAL_CHECK_ACTIONS, CREDENTIALS_PRESENTED_HOOK, CredentialCheckHookHandler } from '../credential-checks/domain/credential-check-handlers';
import type { Database } from '../../platform/database/database';
import { KnexInterviewReminderRepository } from '../reminders/storage/interview-reminder-repository';
import { DATABASE } from '../../platform/database/tokens';
import type { HookHandlerRegistration, PluginModule } from '../../platform/composition/plugin-module';
import { ComplianceService } from '../compliance/domain/compliance-service';

/** A handler class declared with @HookHandlerFor, resolved from the container. */
const declared = (handler: new (...args: any[]) => GatedHookHandler): HookHandlerRegistration => {
  const { name, hook, action, steps } = declarationOf(handler);
  return { name, hook, action, ...(steps ? { steps } : {}), resolve: (c) => c.resolve<GatedHookHandler>(handler) };
};

/** One (channel, hook) registration of the parameterized reminder handler. */
const reminder = ({ name, hook, action, channel, steps }: ReminderHookDeclaration): HookHandlerRegistration => ({
  name,
  hook,
  action,
  ...(steps ? { steps } : {}),
  resolve: (c) => new InterviewReminderHookHandler(c.resolve(InterviewReminders), channel, hook),
});

/** One registration per verification action on `credentials.presented`, each gated by its own license. */
const credentialCheck = ({ action, name }: (typeof CREDENTIAL_CHECK_ACTIONS)[number]): HookHandlerRegistration => ({
  name,
  hook: CREDENTIALS_PRESENTED_HOOK,
  action,
  steps: [],
  resolve: (c) =>
    new CredentialCheckHookHandler(c.resolve(CredentialCheckService), c.resolve<EventPublisher>(EVENT_PUBLISHER), action, (held) =>
      c.resolve(ComplianceService).record(held),
    ),
});

/** Every hook handler of this plugin, in the order they run for one hook. */
export const HOOK_HANDLERS: readonly HookHandlerRegistration[] = [
  ...REMINDER_HOOKS.filter((r) => r.hook === 'interview.scheduled').map(reminder),
  declared(VideoMeetingLinkHandler),
  ...REMINDER_HOOKS.filter((r) => r.hook !== 'interview.scheduled').map(reminder),
  declared(EmployeeSyncHandler),
  ...CREDENTIAL_CHECK_ACTIONS.map(credentialCheck),
  declared(EmployeeUpdateHandler),
  declared(EmployeeDeactivateHandler),
  declared(VolunteerProvisionHandler),
  declared(PayrollNewHireFileHandler),
  declared(PayrollChangeHandler),
  declared(PayrollTerminationHandler),
  declared(PosHireHandler),
  declared(PosUpdateHandler),
  declared(PosTerminationHandler),
];

/** Entries held by each process's entitlement cache (organizations × actions). */
const ENTITLEMENT_CACHE_MAX_ENTRIES = 100_000;

export const HOOK_DISPATCHER = Symbol('HookDispatcher');

export const hooksModule: PluginModule = {
  name: 'hooks',
  register(container, { config }) {
    // The entitlement cache reads the licensing area's answer on a miss.
    container.register(ENTITLEMENT_SOURCE, { useToken: ENTITLEMENTS });
    container.register<EntitlementCacheOptions>(ENTITLEMENT_CACHE_OPTIONS, {
      useValue: { ttlMs: config.entitlementCacheTtlSeconds * 1000, maxEntries: ENTITLEMENT_CACHE_MAX_ENTRIES },
    });
    container.registerSingleton(EntitlementCache);
    // ENTITLEMENT_INVALIDATIONS: the caching module's one channel for every per-process cache.
    container.registerSingleton(EntitlementSync);
    container.registerSingleton(HookGate);
    // What the HRIS was last asked to do per person: a retried hook is the same run, a change back a new one.
    container.register(SYNC_LEDGER, { useFactory: instanceCachingFactory((c) => new KnexSyncLedger(c.resolve<Database>(DATABASE))) });
    registerCandidateData(
      container,
      candidateStore(
        tableStore(container.resolve<Database>(DATABASE), {
          name: 'hook_sync_states',
          description:
            "What the HRIS was last asked to do for each hired person (the host's candidate id, email, a digest of the record sent and its revision), matched by email",
          table: 'hi_hook_sync_states',
          where: (q, s) => q.where({ organization_id: s.organizationId }).whereIn('email', [...s.emails]),
        }),
      ),
    );

    // The connector ports (NOTIFICATION_CONNECTOR, …) are bound by the action-runs feature.
    container.register(INTERVIEW_REMINDER_REPOSITORY, {
      useFactory: instanceCachingFactory((c) => new KnexInterviewReminderRepository(c.resolve<Database>(DATABASE))),
    });
    container.register(REMINDER_OPTIONS, { useValue: { leadMinutes: config.reminderLeadMinutes } });
    container.registerSingleton(InterviewReminders);
    container.registerSingleton(ReminderDelivery);
    // A failed reminder run can be retried from the runs API.
    container.register(RUN_REPLAYER, { useFactory: instanceCachingFactory((c) => c.resolve(ReminderRunReplayer)) });
  },
  hooks: [...HOOK_HANDLERS],
  processors: (container) => [container.resolve(InterviewReminderProcessor)],
  async start(container) {
    const stopSync = await container.resolve(EntitlementSync).start();
    const stopCleanup = cancelRemindersOnDeactivation(container);
    return async () => {
      stopCleanup();
      await stopSync();
    };
  },
};

/**
 * When an organization stops holding a reminder action, its pending reminders of that
 * channel are canceled (the reminder job would skip them anyway; canceling keeps a later
 * re-activation from sending reminders of interviews canceled meanwhile).
 */
function cancelRemindersOnDeactivation(container: DependencyContainer) {
  const reminders = container.resolve(InterviewReminders);
  const logger = container.resolve<Logger>(LOGGER);
  const channels = new Map(Object.entries(REMINDER_ACTIONS).map(([channel, action]) => [action, channel as ReminderChannel]));
  return container.resolve(LicenseChanges).onChange(async (change) => {
    if (change.event !== 'license.deactivated' || change.stillEntitled) return;
    const channel = channels.get(change.license.actionKey);
    if (!channel) return;
    const count = await reminders.cancelAllFor(change.license.organizationId, channel, 'license_deactivated');
    if (count > 0) logger.info({ organizationId: change.license.organizationId, channel, count }, 'pending interview reminders canceled (license deactivated)');
  });
}

/**
 * The registry of every module's hook handlers (the catalog reads it) and the dispatcher
 * behind PluginInstance.fireHook. Called by the composition root once modules registered.
 */
export function registerHookDispatch(container: DependencyContainer, registrations: readonly HookHandlerRegistration[]): void {
  container.register(HOOK_REGISTRY, {
    useValue: new HookRegistry(
      registrations.map((r) => ({
        name: r.name,
        hook: r.hook,
        action: r.action,
        ...(r.steps ? { steps: r.steps } : {}),
        handler: () => r.resolve(container) as GatedHookHandler,
      })),
    ),
  });
  container.register(HOOK_DISPATCHER, {
    useFactory: instanceCachingFactory((c) => {
      const standing = c.isRegistered(PAYMENT_STANDING, true) ? c.resolve<PaymentStanding>(PAYMENT_STANDING) : undefined;
      // Cached beside the entitlements (dropped with them when the standing changes): one billing read per organization and TTL.
      const cache = c.resolve(EntitlementCache);
      const refusal = (organizationId: string) =>
        cache.refusalReason(organizationId, async () => (standing && (await standing.isSuspended(organizationId)) ? PAYMENT_REQUIRED : undefined));
      return new HookDispatcher(c.resolve(HOOK_REGISTRY), c.resolve(HookGate), c.resolve<Logger>(LOGGER), refusal);
    }),
  });
}
