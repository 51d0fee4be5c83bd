/**
 * Scheduling (scheduling.interview_scheduling): the request API (/v1/scheduling), the
 * candidate's page (/v1/schedule), bookings written into the interviewers' CalDAV calendars
 * as action runs, and the tables of requests and bookings (candidate data, registered).
 */
import { instanceCachingFactory } from 'tsyringe';
import { CLOCK, type Clock } from '../../kernel/clock';
import { DomainError } from '../../kernel/errors';
import { EVENT_PUBLISHER, type EventPublisher } from '../../kernel/events';
import { LOGGER, type Logger } from '../../kernel/logger';
import type { PluginModule } from '../../platform/composition/plugin-module';
import type { Database } from '../../platform/database/database';
import { DATABASE } from '../../platform/database/tokens';
import { deriveKey } from '../../platform/security/key-derivation';
import { ActionRunner } from '../action-runs/domain/action-runner';
import { AVAILABLE_CALENDARS, type AvailableCalendars } from '../availability/domain/available-calendars';
import type { ConnectorResolver } from '../connections/domain/connector-resolver';
import { CONNECTOR_RESOLVER } from '../connections/register';
import { NOTIFICATION_CONNECTOR, SMS_CONNECTOR, type NotificationConnector, type SmsConnector } from '../hooks/domain/connectors';
import { HookGate } from '../hooks/domain/hook-gate';
import { ORGANIZATION_REPOSITORY, type OrganizationRepository } from '../organizations/domain/ports';
import { candidateStore } from '../privacy/domain/candidate-data';
import { registerCandidateData } from '../privacy/register';
import type { BookingRepository } from './domain/bookings';
import { RecordedCalendar } from './domain/recorded-calendar';
import { INTERVIEW_SCHEDULING_ACTION, SCHEDULING_REQUEST_REPOSITORY, type SchedulingRequestRepository } from './domain/scheduling-request';
import { SchedulingRequests } from './domain/scheduling-requests';
import { BOOKING_REPOSITORY, SCHEDULING_LINK_KEY } from './domain/tokens';
import { schedulingPageRouter } from './http/scheduling-page-router';
import { schedulingRoutes } from './http/scheduling-router';
import { bookingCandidateStore } from './storage/booking-candidate-store';
import { KnexBookingRepository } from './storage/knex-booking-repository';
import { KnexSchedulingRequestRepository } from './storage/knex-scheduling-request-repository';
import { requestCandidateStore } from './storage/request-candidate-store';

export const schedulingModule: PluginModule = {
  name: 'scheduling',
  builtInActions: [INTERVIEW_SCHEDULING_ACTION],
  register(container, { config }) {
    const db = container.resolve<Database>(DATABASE);
    registerCandidateData(container, candidateStore(bookingCandidateStore(db)));
    registerCandidateData(container, candidateStore(requestCandidateStore(db)));
    container.register(SCHEDULING_LINK_KEY, { useValue: deriveKey(config.secretKey, 'scheduling-links') });
    container.register(BOOKING_REPOSITORY, { useValue: new KnexBookingRepository(db) });
    container.register(SCHEDULING_REQUEST_REPOSITORY, { useValue: new KnexSchedulingRequestRepository(db) });
    container.register(SchedulingRequests, {
      useFactory: instanceCachingFactory((c) => {
        const resolver = c.resolve<ConnectorResolver>(CONNECTOR_RESOLVER);
        const runner = c.resolve(ActionRunner);
        const gate = c.resolve(HookGate);
        const organizations = c.resolve<OrganizationRepository>(ORGANIZATION_REPOSITORY);
        const clock = c.resolve<Clock>(CLOCK);
        const available = c.isRegistered(AVAILABLE_CALENDARS) ? c.resolve<AvailableCalendars>(AVAILABLE_CALENDARS) : undefined;
        return new SchedulingRequests(
          c.resolve<SchedulingRequestRepository>(SCHEDULING_REQUEST_REPOSITORY),
          c.resolve<BookingRepository>(BOOKING_REPOSITORY),
          {
            email: c.resolve<NotificationConnector>(NOTIFICATION_CONNECTOR),
            sms: c.resolve<SmsConnector>(SMS_CONNECTOR),
            smsAvailable: async (organizationId) => (await resolver.availability(organizationId, 'sms')) !== undefined,
            async calendar(organizationId, interviewer) {
              const resolved = await resolver.connection(organizationId, interviewer.connectionId, 'calendar');
              let calendar = resolved.port;
              if (interviewer.calendarUrl) {
                if (!calendar.withCalendar)
                  throw new DomainError(
                    'invalid',
                    'calendar_url_unsupported',
                    `The ${resolved.connector} connector serves one calendar; leave calendar_url out`,
                    {
                      param: 'calendar_url',
                    },
                  );
                calendar = calendar.withCalendar(interviewer.calendarUrl);
              }
              const recorded = new RecordedCalendar(calendar, runner, {
                organizationId,
                action: INTERVIEW_SCHEDULING_ACTION,
                connector: resolved.connector,
                connectionId: interviewer.connectionId,
                ...(interviewer.calendarUrl ? { calendarUrl: interviewer.calendarUrl } : {}),
                livemode: resolved.livemode,
              });
              // With scheduling.availability_sync: busy times from the synced cache when fresh, plus time off.
              if (!available) return recorded;
              const ref = { organizationId, connectionId: interviewer.connectionId, email: interviewer.email };
              return available.wrap(interviewer.calendarUrl ? { ...ref, calendarUrl: interviewer.calendarUrl } : ref, recorded);
            },
            licensed: async (organizationId, action) => gate.allows(organizationId, action),
            organizationName: async (organizationId) => (await organizations.findById(organizationId))?.name ?? organizationId,
          },
          c.resolve<EventPublisher>(EVENT_PUBLISHER),
          c.resolve<Buffer>(SCHEDULING_LINK_KEY),
          { baseUrl: config.baseUrl, stepMinutes: 30, bufferMinutes: 0, noticeMinutes: 12 * 60 },
          () => clock.now(),
          c.resolve<Logger>(LOGGER),
        );
      }),
    });
  },
  routers: [
    { name: 'scheduling', create: (container, kit) => kit.build('scheduling', schedulingRoutes(container.resolve(SchedulingRequests))) },
    { name: 'scheduling-pages', create: (container, kit) => schedulingPageRouter(container.resolve(SchedulingRequests), kit) },
  ],
};
