/**
 * iCalendar (RFC 5545) for the events the plugin owns, written with ical-generator: the
 * object stored in a CalDAV calendar (no METHOD, RFC 4791 §4.1) and the iTIP message sent
 * by email (RFC 5546 REQUEST / CANCEL, RFC 6047): the same UID for the event's whole life
 * and a SEQUENCE that grows with every change, so calendar clients replace the old version.
 * Times are written in UTC: every client shows them in its own zone, and no VTIMEZONE
 * definition (which would have to track the zone database) is needed. Whole days (time off)
 * are dates (VALUE=DATE, DTEND exclusive): an all-day event in every client's zone.
 */
import ical, { ICalAttendeeRole, ICalAttendeeStatus, ICalCalendarMethod, ICalEventStatus, ICalEventTransparency } from 'ical-generator';
import type { CalendarEvent } from './calendar-port';

export type ItipMethod = 'REQUEST' | 'CANCEL';

const PRODID = { company: 'hiring-integrations', product: 'scheduling', language: 'EN' };

export function toICalendar(event: CalendarEvent, method?: ItipMethod): string {
  const calendar = ical({ prodId: PRODID });
  if (method) calendar.method(method === 'REQUEST' ? ICalCalendarMethod.REQUEST : ICalCalendarMethod.CANCEL);
  const cancelled = method === 'CANCEL' || event.status === 'cancelled';
  calendar.createEvent({
    id: event.uid,
    sequence: event.sequence,
    stamp: new Date(),
    // A date as ical-generator writes VALUE=DATE: the UTC midnight of that date.
    ...(event.allDay
      ? { start: new Date(`${event.allDay.startDate}T00:00:00Z`), end: new Date(`${event.allDay.endDate}T00:00:00Z`), allDay: true }
      : { start: event.start, end: event.end }),
    summary: event.summary,
    ...(event.description ? { description: event.description } : {}),
    ...(event.location ? { location: event.location } : {}),
    ...(event.url ? { url: event.url } : {}),
    organizer: { name: event.organizer.name, email: event.organizer.email },
    attendees: event.attendees.map((a) => ({
      name: a.name,
      email: a.email,
      role: ICalAttendeeRole.REQ,
      status: ICalAttendeeStatus.NEEDSACTION,
      rsvp: !cancelled,
    })),
    status: cancelled ? ICalEventStatus.CANCELLED : event.status === 'tentative' ? ICalEventStatus.TENTATIVE : ICalEventStatus.CONFIRMED,
    transparency: event.transparent ? ICalEventTransparency.TRANSPARENT : ICalEventTransparency.OPAQUE,
  });
  return calendar.toString();
}
