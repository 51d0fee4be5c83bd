/**
 * Shifts (scheduling.shift_scheduling, restaurants): the API (/v1/shifts), the person's
 * confirmation page and calendar feed, the `shift-notifications` queue (deliveries,
 * reminders, the reminder sweep) and the tables (employees' personal data, registered like
 * candidates').
 */
import { instanceCachingFactory } from 'tsyringe';
import { BULLMQ_QUEUES } from '../../composition/infrastructure';
import type { HookHandlerRegistration, PluginModule } from '../../platform/composition/plugin-module';
import type { Database } from '../../platform/database/database';
import { DATABASE } from '../../platform/database/tokens';
import type { BullmqJobQueue } from '../../platform/queue/bullmq-queue';
import { deriveKey } from '../../platform/security/key-derivation';
import type { ConnectorResolver } from '../connections/domain/connector-resolver';
import { CONNECTOR_RESOLVER } from '../connections/register';
import { declarationOf, type GatedHookHandler } from '../hooks/domain/hook-handler';
import { candidateStore } from '../privacy/domain/candidate-data';
import { registerCandidateData } from '../privacy/register';
import { tableStore } from '../privacy/storage/table-store';
import { SHIFT_LINK_KEY, SHIFT_OPTIONS, SHIFT_REPOSITORY, SHIFT_SCHEDULING_ACTION, SHIFT_SMS_AVAILABILITY, type SmsAvailability } from './domain/shift';
import { ShiftCancelledHandler, ShiftPublishedHandler, ShiftUpdatedHandler } from './domain/shift-hooks';
import { Shifts } from './domain/shifts';
import { shiftConfirmRouter, shiftFeedRouter } from './http/shift-pages-router';
import { shiftRoutes } from './http/shifts-router';
import { ShiftNotificationProcessor } from './jobs/shift-notifications';
import { scheduleShiftSweep } from './jobs/sweep-schedule';
import { KnexShiftRepository } from './storage/knex-shift-repository';

const declared = (handler: new (...args: any[]) => GatedHookHandler): HookHandlerRegistration => {
  const { name, hook, action, steps } = declarationOf(handler);
  return { name, hook, action, ...(steps ? { steps } : {}), resolve: (c) => c.resolve<GatedHookHandler>(handler) };
};

export const shiftsModule: PluginModule = {
  name: 'shifts',
  builtInActions: [SHIFT_SCHEDULING_ACTION],
  // The invitation goes by email (SMS only where it resolves): without email the license waits in requires_connection.
  builtInActionSteps: { [SHIFT_SCHEDULING_ACTION]: ['email'] },
  register(container, { config }) {
    const db = container.resolve<Database>(DATABASE);
    container.register(SHIFT_LINK_KEY, { useValue: deriveKey(config.secretKey, 'shift-links') });
    container.register(SHIFT_REPOSITORY, { useFactory: instanceCachingFactory(() => new KnexShiftRepository(db)) });
    container.register(SHIFT_OPTIONS, { useValue: { baseUrl: config.baseUrl, testClocks: config.env !== 'production' } });
    container.register<SmsAvailability>(SHIFT_SMS_AVAILABILITY, {
      useFactory: (c) => async (organizationId) => (await c.resolve<ConnectorResolver>(CONNECTOR_RESOLVER).availability(organizationId, 'sms')) !== undefined,
    });
    container.registerSingleton(Shifts);
    const shiftsOf = (organizationId: string, emails: readonly string[], phones: readonly string[]) =>
      db('hi_shifts')
        .select('employee_id')
        .where({ organization_id: organizationId })
        .where((w) => w.whereIn('employee_email', [...emails]).orWhereIn('employee_phone', [...phones]));
    // Feeds first: an erasure finds them through the shifts it then erases.
    registerCandidateData(
      container,
      candidateStore(
        tableStore(db, {
          name: 'shift_feeds',
          description: "The version of an employee's calendar feed link (the host's employee id), matched through their shifts' email or phone",
          table: 'hi_shift_feeds',
          where: (q, s) => q.where({ organization_id: s.organizationId }).whereIn('employee_id', shiftsOf(s.organizationId, s.emails, s.phones)),
        }),
      ),
    );
    registerCandidateData(
      container,
      candidateStore(
        tableStore(db, {
          name: 'shifts',
          description:
            'Shifts published for an employee (name, email, phone, time zone, language, place, times, their answer and reminder; an address changed from until it is sent a CANCEL), matched by the email or phone given',
          table: 'hi_shifts',
          where: (q, s) =>
            q.where({ organization_id: s.organizationId }).where((w) =>
              w
                .whereIn('employee_email', [...s.emails])
                .orWhereIn('employee_phone', [...s.phones])
                .orWhereIn('retract_email', [...s.emails]),
            ),
        }),
      ),
    );
  },
  // The host's shifts through its hook bus: the same effect as the API.
  hooks: [declared(ShiftPublishedHandler), declared(ShiftUpdatedHandler), declared(ShiftCancelledHandler)],
  processors: (container) => [container.resolve(ShiftNotificationProcessor)],
  routers: [
    { name: 'shift-confirm', create: (container, kit) => shiftConfirmRouter(container.resolve(Shifts), kit) },
    { name: 'shift-feed', create: (container, kit) => shiftFeedRouter(container.resolve(Shifts), kit) },
    { name: 'shifts', create: (container, kit) => kit.build('shifts', shiftRoutes(container.resolve(Shifts))) },
  ],
  async start(container, { logger }) {
    const bullmq = container.isRegistered(BULLMQ_QUEUES) ? container.resolve<BullmqJobQueue>(BULLMQ_QUEUES) : undefined;
    const stop = await scheduleShiftSweep(container.resolve(ShiftNotificationProcessor), bullmq, logger);
    return async () => stop();
  },
};
