/**
 * The `meeting_url_template` connector, for video providers without an API (a Whereby or
 * Jitsi room, a personal meeting link): every meeting gets the template with `{room}`
 * replaced by a room name derived from an HMAC of the idempotency key (stable, unguessable).
 * The same link goes to every participant; the provider's own settings decide who may enter.
 */
import { urlDestination } from '../../features/connections/domain/connection-destinations';
import { createHmac } from 'node:crypto';
import type { ConnectorDefinition } from '../../features/connections/domain/connector-definition';
import type { Meeting, MeetingRequest, VideoMeetingConnector } from '../../features/hooks/domain/connectors';
import { isFailure, probe } from '../http-probe/http-probe';
import { meetingUrlTemplateCredentials, meetingUrlTemplateSettings, type MeetingUrlTemplateCredentials, type MeetingUrlTemplateSettings } from './settings';

export function templateUrl(template: string, room: string): string {
  return template.replace(/\{room\}|%7Broom%7D/g, encodeURIComponent(room));
}

export class TemplateMeetingConnector implements VideoMeetingConnector {
  constructor(
    private readonly settings: MeetingUrlTemplateSettings,
    private readonly credentials: MeetingUrlTemplateCredentials,
  ) {}

  async createMeeting(request: MeetingRequest): Promise<Meeting> {
    const digest = createHmac('sha256', this.credentials.room_secret).update(`meeting-room:${request.idempotencyKey}`).digest('hex').slice(0, 20);
    const room = `${this.settings.room_prefix}${this.settings.room_prefix ? '-' : ''}${digest}`;
    const joinUrl = templateUrl(this.settings.template, room);
    return {
      deliveryId: room,
      reference: room,
      livemode: true,
      meetingId: room,
      joinUrl,
      participants: request.attendees.map((a) => ({ name: a.name, ...(a.email ? { email: a.email } : {}), role: a.role ?? 'guest', joinUrl })),
    };
  }
}

export const meetingUrlTemplateConnector: ConnectorDefinition<'video_meetings', MeetingUrlTemplateSettings, MeetingUrlTemplateCredentials> = {
  key: 'meeting_url_template',
  kind: 'video_meetings',
  description: 'Meeting links from a room-URL template, for video providers without an API',
  settings: meetingUrlTemplateSettings,
  credentials: meetingUrlTemplateCredentials,
  async test(settings, _credentials, network) {
    // The provider's site must answer for a sample room (a 4xx is fine: many show a lobby or a sign-in).
    const answer = await probe(templateUrl(settings.template, 'connection-test'), network);
    if (isFailure(answer)) return answer;
    if (answer.status >= 500) return { ok: false, code: 'connection_protocol_error', message: `the meeting site answered ${answer.status}` };
    return { ok: true, detail: `${new URL(templateUrl(settings.template, 'x')).host} answered ${answer.status}` };
  },
  destinations: (s) => [urlDestination('settings.template', templateUrl(s.template, 'connection-test'))],
  open: (settings, credentials) => new TemplateMeetingConnector(settings, credentials),
};
