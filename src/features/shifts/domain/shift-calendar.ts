/**
 * A shift as iCalendar: the event the iTIP invitation carries (scheduling's invitations.ts
 * sends it as REQUEST or CANCEL) and the person's subscription feed, a VCALENDAR of their
 * upcoming shifts without METHOD (RFC 5545 §3.7.2: a published calendar, not a scheduling
 * message). Both use the same UID and SEQUENCE, so a client holding the invite and the
 * feed sees one event. Times in UTC, like the invitations (no VTIMEZONE to keep current).
 */
import ical, { ICalEventStatus } from 'ical-generator';
import type { CalendarEvent } from '../../scheduling/domain/calendar-port';
import { messageLanguage } from '../../messages/domain/message-language';
import { shiftUid, type Shift } from './shift';
import { fill, SHIFT_STRINGS } from './shift-strings';

const PRODID = { company: 'hiring-integrations', product: 'shifts', language: 'EN' };

export function shiftSummary(shift: Shift): string {
  const s = SHIFT_STRINGS[messageLanguage(shift.employee.language).locale];
  return fill(shift.role ? s.summary_role : s.summary, { role: shift.role ?? '', location: shift.location });
}

export function shiftEvent(shift: Shift, confirmUrl?: string): CalendarEvent {
  return {
    uid: shiftUid(shift),
    sequence: shift.sequence,
    summary: shiftSummary(shift),
    ...(shift.notes ? { description: shift.notes } : {}),
    location: shift.location,
    ...(confirmUrl ? { url: confirmUrl } : {}),
    start: shift.startsAt,
    end: shift.endsAt,
    timezone: shift.employee.timezone,
    organizer: shift.organizer,
    attendees: shift.employee.email ? [{ name: shift.employee.name, email: shift.employee.email }] : [],
    status: shift.status === 'cancelled' ? 'cancelled' : 'confirmed',
  };
}

/** The feed: the person's upcoming shifts, refreshed hourly by clients that honour REFRESH-INTERVAL. */
export function shiftFeed(calendarName: string, shifts: readonly Shift[], now: Date): string {
  const calendar = ical({ prodId: PRODID, name: calendarName, ttl: 3600 });
  for (const shift of shifts) {
    calendar.createEvent({
      id: shiftUid(shift),
      sequence: shift.sequence,
      stamp: now,
      start: shift.startsAt,
      end: shift.endsAt,
      summary: shiftSummary(shift),
      ...(shift.notes ? { description: shift.notes } : {}),
      location: shift.location,
      status: ICalEventStatus.CONFIRMED,
    });
  }
  return calendar.toString();
}
