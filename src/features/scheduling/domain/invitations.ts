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
import { formatMoment, messageLanguage } from '../../messages/domain/message-language';
import { INVITATION_STRINGS } from './invitation-strings';
import { escapeHtml } from '../../../kernel/html-escape';

export interface Invitation {
  organizationId: string;
  actionKey: string;
  method: ItipMethod;
  event: CalendarEvent;
  to: CalendarPerson;
  /** BCP 47: the subject, text and HTML parts are in it (one of the six message languages, else English); the .ics is language-neutral. */
  language?: string;
}

export async function sendInvitation(email: NotificationConnector, invitation: Invitation): Promise<Delivery> {
  const { event, method, to } = invitation;
  const language = messageLanguage(invitation.language);
  const s = INVITATION_STRINGS[language.locale];
  const cancelled = method === 'CANCEL';
  // A header: the summary comes from a host's payload, so no line breaks get into it.
  const subject = `${cancelled ? s.canceled : event.sequence > 0 ? s.updated : s.invitation}: ${event.summary}`.replace(/[\r\n\t]+/g, ' ');
  const when = formatMoment(event.start, language, event.timezone);
  // The same words in the text and the HTML part: [label, value, link?].
  const rows: [string | null, string, boolean?][] = cancelled
    ? [
        [s.when, when],
        [null, s.canceled_line],
      ]
    : [
        [s.when, when],
        ...(event.location ? [[s.where, event.location] as [string, string]] : []),
        ...(event.url ? [[s.respond, event.url, true] as [string, string, boolean]] : []),
        [s.organizer, `${event.organizer.name} <${event.organizer.email}>`],
      ];
  const text = [event.summary, ...rows.map(([label, value]) => (label ? `${label}: ${value}` : value))].join('\n');
  const html = [
    '<!doctype html>',
    `<html lang="${escapeHtml(language.tag)}" dir="${language.direction}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family:system-ui,sans-serif;line-height:1.5">',
    `<p><strong>${escapeHtml(event.summary)}</strong></p>`,
    ...rows.map(([label, value, link]) => {
      const shown = link ? `<a href="${escapeHtml(value)}">${escapeHtml(value)}</a>` : escapeHtml(value);
      return `<p>${label ? `${escapeHtml(label)}: ` : ''}${shown}</p>`;
    }),
    '</body></html>',
  ].join('\n');
  return email.sendEmail({
    organizationId: invitation.organizationId,
    actionKey: invitation.actionKey,
    idempotencyKey: `itip-${invitation.organizationId}-${event.uid}-${event.sequence}-${method}-${to.email}`,
    to,
    subject,
    text,
    html,
    language: language.tag,
    calendar: { method, content: toICalendar(event, method) },
  });
}
