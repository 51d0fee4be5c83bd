/**
 * Availability sync (scheduling.availability_sync): interviewer calendars followed by a
 * repeating incremental sync into a busy-time cache that slot computation reads while fresh,
 * and the host's time-off hooks (stored, blocking slots, written into the person's calendar).
 * Scheduling asks AVAILABLE_CALENDARS (domain/available-calendars.ts) to wrap each interviewer's calendar.
 */
import { instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import { BULLMQ_QUEUES } from '../../composition/infrastructure';
import { CLOCK, type Clock } from '../../kernel/clock';
import { DomainError } from '../../kernel/errors';
import type { HookHandlerRegistration, PluginModule } from '../../platform/composition/plugin-module';
import type { Database } from '../../platform/database/database';
import { DATABASE } from '../../platform/database/tokens';
import type { BullmqJobQueue } from '../../platform/queue/bullmq-queue';
import { ActionRunner } from '../action-runs/domain/action-runner';
import type { ConnectorResolver } from '../connections/domain/connector-resolver';
import { CONNECTOR_RESOLVER } from '../connections/register';
import { HookGate } from '../hooks/domain/hook-gate';
import { declarationOf, type GatedHookHandler } from '../hooks/domain/hook-handler';
import { candidateStore, noCandidateData } from '../privacy/domain/candidate-data';
import { registerCandidateData } from '../privacy/register';
import { AvailabilitySync, type CalendarOpener } from './domain/availability-sync';
import { AVAILABLE_CALENDARS, AvailableCalendars } from './domain/available-calendars';
import { TIME_OFF_STORE } from './domain/time-off';
import { TimeOffCancelledHandler, TimeOffCreatedHandler, TimeOffUpdatedHandler } from './domain/time-off-handlers';
import { TimeOffService } from './domain/time-off-service';
import { AVAILABILITY_SYNC_ACTION, TRACKED_CALENDAR_STORE, type TrackedCalendarStore } from './domain/tracked-calendar';
import { availabilityRoutes } from './http/availability-router';
import { AvailabilitySyncProcessor, scheduleAvailabilitySync } from './jobs/availability-sync-job';
import { availabilityCalendarCandidateStore, timeOffCandidateStore } from './storage/availability-candidate-stores';
import { KnexTimeOff } from './storage/knex-time-off';
import { KnexTrackedCalendars } from './storage/knex-tracked-calendars';

const declared = (handler: new (...args: any[]) => GatedHookHandler): HookHandlerRegistration => {
  const { name, hook, action, steps } = declarationOf(handler);
  return { name, hook, action, ...(steps ? { steps } : {}), resolve: (c) => c.resolve<GatedHookHandler>(handler) };
};

function calendarOpener(container: DependencyContainer): CalendarOpener {
  const resolver = container.resolve<ConnectorResolver>(CONNECTOR_RESOLVER);
  return {
    async open(ref) {
      const resolved = await resolver.connection(ref.organizationId, ref.connectionId, 'calendar');
      let calendar = resolved.port;
      if (ref.calendarUrl) {
        if (!calendar.withCalendar)
          throw new DomainError('conflict', 'calendar_url_unsupported', `The ${resolved.connector} connector serves one calendar`, { param: 'calendar_url' });
        calendar = calendar.withCalendar(ref.calendarUrl);
      }
      return { calendar, connector: resolved.connector, livemode: resolved.livemode };
    },
  };
}

export const availabilityModule: PluginModule = {
  name: 'availability',
  register(container) {
    const db = container.resolve<Database>(DATABASE);
    registerCandidateData(container, candidateStore(timeOffCandidateStore(db)));
    registerCandidateData(container, candidateStore(availabilityCalendarCandidateStore(db)));
    registerCandidateData(
      container,
      noCandidateData('hi_availability_busy', "Start, end and UID of busy times read from interviewers' calendars: no titles, attendees or descriptions"),
    );
    container.register(TRACKED_CALENDAR_STORE, { useValue: new KnexTrackedCalendars(db) });
    container.register(TIME_OFF_STORE, { useValue: new KnexTimeOff(db) });
    const licensed = (c: DependencyContainer) => async (organizationId: string) => c.resolve(HookGate).allows(organizationId, AVAILABILITY_SYNC_ACTION);
    const now = (c: DependencyContainer) => () => c.resolve<Clock>(CLOCK).now();
    container.register(AVAILABLE_CALENDARS, {
      useFactory: instanceCachingFactory((c) => new AvailableCalendars(c.resolve(TRACKED_CALENDAR_STORE), c.resolve(TIME_OFF_STORE), licensed(c), now(c))),
    });
    container.register(AvailabilitySync, {
      useFactory: instanceCachingFactory(
        (c) => new AvailabilitySync(c.resolve(TRACKED_CALENDAR_STORE), calendarOpener(c), c.resolve(ActionRunner), licensed(c), now(c)),
      ),
    });
    container.register(TimeOffService, {
      useFactory: instanceCachingFactory(
        (c) => new TimeOffService(c.resolve(TIME_OFF_STORE), c.resolve(TRACKED_CALENDAR_STORE), calendarOpener(c), c.resolve(ActionRunner), now(c)),
      ),
    });
    container.register(AvailabilitySyncProcessor, {
      useFactory: instanceCachingFactory((c) => new AvailabilitySyncProcessor(c.resolve(AvailabilitySync))),
    });
  },
  routers: [
    {
      name: 'availability',
      create: (container, kit) =>
        kit.build(
          'availability',
          availabilityRoutes(container.resolve<TrackedCalendarStore>(TRACKED_CALENDAR_STORE), container.resolve(AvailabilitySync), () =>
            container.resolve<Clock>(CLOCK).now(),
          ),
        ),
    },
  ],
  hooks: [declared(TimeOffCreatedHandler), declared(TimeOffUpdatedHandler), declared(TimeOffCancelledHandler)],
  processors: (container) => [container.resolve(AvailabilitySyncProcessor)],
  async start(container, { logger }) {
    const bullmq = container.isRegistered(BULLMQ_QUEUES) ? container.resolve<BullmqJobQueue>(BULLMQ_QUEUES) : undefined;
    const stop = await scheduleAvailabilitySync(container.resolve(AvailabilitySyncProcessor), bullmq, logger);
    return async () => stop();
  },
};
