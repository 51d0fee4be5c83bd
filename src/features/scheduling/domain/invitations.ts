/**
 * Invitations to people outside the organization (candidates, shift workers without a
 * calendar connection): the event as an iTIP message over email (RFC 6047), REQUEST for a
 * new or changed event and CANCEL for a removed one, through whatever email connector the
 * organization resolves. The idempotency key names the UID, SEQUENCE and method, so a
 * retried job never sends the same version twice while a change always goes out.
 */
import type { Delivery, NotificationConnector } from '../../hooks/domain/connectors';
import type { CalendarEvent, CalendarPerson } from './calendar-port';
import { toICalendar, type ItipMethod } from './icalendar';

export interface Invitation {
  organizationId: string;
  actionKey: string;
  method: ItipMethod;
  event: CalendarEvent;
  to: CalendarPerson;
  /** BCP 47; the text part is English until per-language templates exist (the .ics is language-neutral). */
  language?: string;
}

function when(event: CalendarEvent, language: string): string {
  const format = new Intl.DateTimeFormat(language, {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: event.timezone ?? 'UTC',
    timeZoneName: 'short',
  });
  return format.format(event.start);
}

export async function sendInvitation(email: NotificationConnector, invitation: Invitation): Promise<Delivery> {
  const { event, method, to } = invitation;
  const language = invitation.language ?? 'en';
  const cancelled = method === 'CANCEL';
  const subject = `${cancelled ? 'Canceled' : event.sequence > 0 ? 'Updated' : 'Invitation'}: ${event.summary}`;
  const lines = [
    `${event.summary} — ${when(event, language)}`,
    cancelled ? 'This event has been canceled.' : (event.location ?? ''),
    cancelled ? '' : (event.url ?? ''),
    cancelled ? '' : `Organizer: ${event.organizer.name} <${event.organizer.email}>`,
  ].filter((line) => line !== '');
  return email.sendEmail({
    organizationId: invitation.organizationId,
    actionKey: invitation.actionKey,
    idempotencyKey: `itip-${invitation.organizationId}-${event.uid}-${event.sequence}-${method}-${to.email}`,
    to,
    subject,
    text: lines.join('\n'),
    language,
    calendar: { method, content: toICalendar(event, method) },
  });
}
