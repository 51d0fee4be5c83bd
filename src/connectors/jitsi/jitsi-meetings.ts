/**
 * Meetings on a self-hosted Jitsi Meet with token authentication (Prosody's
 * mod_auth_token): a room per meeting, named by an HMAC of the idempotency key (stable for
 * retries, unguessable without the secret), and one link per participant carrying an HS256
 * JWT (`aud`, `iss`, `sub`, `room`, `nbf`, `exp`, `context.user`). Interviewers are
 * moderators; the candidate is not. Nothing is called on the Jitsi side: the room exists
 * when the first participant with a valid token enters it, as Jitsi's own JaaS tokens work.
 */
import { createHmac } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Meeting, MeetingParticipantLink, MeetingRequest, VideoMeetingConnector } from '../../features/hooks/domain/connectors';
import type { JitsiCredentials, JitsiSettings } from './settings';

/** Participants may enter this long before the start (Jitsi checks `nbf`). */
const EARLY_JOIN_MINUTES = 30;

export function roomName(settings: JitsiSettings, secret: string, idempotencyKey: string): string {
  const digest = createHmac('sha256', secret).update(`jitsi-room:${idempotencyKey}`).digest('hex').slice(0, 24);
  return `${settings.room_prefix}${settings.room_prefix ? '-' : ''}${digest}`;
}

const baseOf = (settings: JitsiSettings) => settings.base_url.replace(/\/+$/, '');

export class JitsiMeetingConnector implements VideoMeetingConnector {
  private readonly key: Uint8Array;

  constructor(
    private readonly settings: JitsiSettings,
    private readonly credentials: JitsiCredentials,
  ) {
    this.key = new TextEncoder().encode(credentials.app_secret);
  }

  async createMeeting(request: MeetingRequest): Promise<Meeting> {
    const room = roomName(this.settings, this.credentials.app_secret, request.idempotencyKey);
    const roomUrl = `${baseOf(this.settings)}/${room}`;
    const startsAt = Math.floor(request.startsAt.getTime() / 1000);
    const expiresAt = startsAt + (request.durationMinutes + this.settings.valid_after_end_minutes) * 60;
    const participants: MeetingParticipantLink[] = [];
    for (const attendee of request.attendees) {
      const moderator = attendee.role === 'host';
      const token = await new SignJWT({
        room,
        context: { user: { name: attendee.name, ...(attendee.email ? { email: attendee.email } : {}), moderator } },
      })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(this.settings.app_id)
        .setAudience(this.settings.audience)
        .setSubject(this.settings.subject ?? new URL(this.settings.base_url).hostname)
        .setNotBefore(startsAt - EARLY_JOIN_MINUTES * 60)
        .setExpirationTime(expiresAt)
        .sign(this.key);
      participants.push({
        name: attendee.name,
        ...(attendee.email ? { email: attendee.email } : {}),
        role: moderator ? 'host' : 'guest',
        joinUrl: `${roomUrl}?jwt=${token}`,
      });
    }
    return { deliveryId: room, reference: room, livemode: true, meetingId: room, joinUrl: roomUrl, participants };
  }
}
