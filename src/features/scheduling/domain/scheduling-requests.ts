/**
 * Candidate self-scheduling (scheduling.interview_scheduling), the way Greenhouse and GoodTime
 * do it: the host asks for an interview; the candidate gets a signed link by email (and SMS
 * when one resolves), opens the page, sees the times every interviewer is free (their CalDAV
 * busy times and working hours, read live), and picks one. Booking claims the slot (of two
 * candidates racing, one wins; one link picking two times at once keeps one booking), writes the event into every interviewer's calendar (action
 * runs), sends the candidate an iTIP REQUEST and publishes `interview.scheduled`, which the
 * plugin's own reminder and meeting-link handlers also take. The same link moves the
 * interview (same UID, SEQUENCE + 1) or cancels it (iTIP CANCEL, events removed); the host
 * can withdraw the request through the API with the same effect (the page then says so).
 */
import { DomainError, isDomainError, notFound } from '../../../kernel/errors';
import type { EventPublisher } from '../../../kernel/events';
import { newId } from '../../../kernel/ids';
import type { Logger } from '../../../kernel/logger';
import type { Delivery, NotificationConnector, SmsConnector } from '../../hooks/domain/connectors';
import { formatMoment, messageLanguage } from '../../messages/domain/message-language';
import { renderMessage } from '../../messages/domain/render-message';
import {
  bookingInProgress,
  bookSlot,
  cancelBooking,
  offeredSlots,
  rescheduleBooking,
  type BookingRepository,
  type Interview,
  type InterviewerCalendar,
} from './bookings';
import type { CalendarConnector, CalendarEvent, TimeRange } from './calendar-port';
import { sendInvitation } from './invitations';
import { openSlots } from './open-slots';
import { signSchedulingLink, verifySchedulingLink } from './scheduling-links';
import {
  INTERVIEW_SCHEDULING_ACTION,
  type Cancellation,
  type RequestedInterviewer,
  type SchedulingOptions,
  type SchedulingRequest,
  type SchedulingRequestRepository,
} from './scheduling-request';

const MINUTE = 60_000;
/** A booking whose request is still `open` after this long was left by a stopped process, not one still writing. */
const UNFINISHED_BOOKING_MS = 5 * MINUTE;
/** The link outlives the window by a week: the candidate can still cancel or see what was booked. */
const LINK_AFTER_WINDOW_MS = 7 * 24 * 60 * MINUTE;

export interface NewSchedulingRequest {
  applicationId: string;
  title?: string;
  candidate: { name: string; email: string; phone?: string; language?: string; timezone: string };
  interviewers: RequestedInterviewer[];
  durationMinutes: number;
  window: TimeRange;
  organizer?: { name: string; email: string };
}

export interface SchedulingPorts {
  email: NotificationConnector;
  sms: SmsConnector;
  /** Whether an SMS step would run for the organization (no SMS connection: email only). */
  smsAvailable(organizationId: string): Promise<boolean>;
  /** The interviewer's calendar connection, its writes recorded as action runs. */
  calendar(organizationId: string, interviewer: RequestedInterviewer): Promise<CalendarConnector>;
  /** Whether the organization's license for the action is active. */
  licensed(organizationId: string, action: string): Promise<boolean>;
  organizationName(organizationId: string): Promise<string>;
}

/** What the candidate's page shows. */
export interface SchedulingView {
  request: SchedulingRequest;
  booked?: TimeRange;
  /** Open times (empty once booked unless moving). */
  slots: TimeRange[];
  organizationName: string;
}

export class SchedulingRequests {
  constructor(
    private readonly requests: SchedulingRequestRepository,
    private readonly bookings: BookingRepository,
    private readonly ports: SchedulingPorts,
    private readonly events: EventPublisher,
    private readonly linkKey: Buffer,
    private readonly options: SchedulingOptions,
    private readonly now: () => Date,
    private readonly logger: Logger,
  ) {}

  async create(organizationId: string, input: NewSchedulingRequest): Promise<SchedulingRequest & { url: string }> {
    if (!(await this.ports.licensed(organizationId, INTERVIEW_SCHEDULING_ACTION)))
      throw new DomainError(
        'forbidden',
        'license_required',
        `The ${INTERVIEW_SCHEDULING_ACTION} license is not active for this organization (POST /v1/integrations/licenses/${INTERVIEW_SCHEDULING_ACTION}/activate)`,
        { action_key: INTERVIEW_SCHEDULING_ACTION },
      );
    const now = this.now();
    if (input.window.end.getTime() - input.window.start.getTime() < input.durationMinutes * MINUTE)
      throw new DomainError('invalid', 'window_too_short', 'The window is shorter than the interview', { param: 'window' });
    if (input.window.end <= now) throw new DomainError('invalid', 'window_in_past', 'The window has already ended', { param: 'window.end' });
    // Every calendar must be the organization's own, verified connection before anyone is sent a link.
    await Promise.all(input.interviewers.map((i) => this.ports.calendar(organizationId, i)));
    const organizationName = await this.ports.organizationName(organizationId);
    // A retry of a create whose answer was lost (no Idempotency-Key, or a new one) finds the
    // request still open for the same application and window, and gets it back instead of a second.
    const existing = await this.requests.findOpen(organizationId, input.applicationId, input.window);
    if (existing) return { ...existing, url: this.url(existing) };
    const first = input.interviewers[0]!;
    const request: SchedulingRequest = {
      id: newId('sreq'),
      organizationId,
      applicationId: input.applicationId,
      title: input.title ?? `Interview: ${input.candidate.name}`,
      candidate: { name: input.candidate.name, email: input.candidate.email, phone: input.candidate.phone ?? null },
      language: messageLanguage(input.candidate.language).tag,
      timezone: input.candidate.timezone,
      durationMinutes: input.durationMinutes,
      window: input.window,
      interviewers: input.interviewers,
      organizer: input.organizer ?? { name: first.name, email: first.email },
      status: 'open',
      cancellation: null,
      emailRunId: null,
      smsRunId: null,
      linkExpiresAt: new Date(input.window.end.getTime() + LINK_AFTER_WINDOW_MS),
      createdAt: now,
      updatedAt: now,
    };
    const created = await this.requests.create(request);
    // Two creates racing: the partial unique index lets one row through; the other answers with it.
    if (created !== request.id) {
      const winner = (await this.requests.get(organizationId, created))!;
      return { ...winner, url: this.url(winner) };
    }
    const url = this.url(request);
    const language = messageLanguage(request.language);
    const params = {
      name: request.candidate.name,
      organization: organizationName,
      title: request.title,
      duration: String(request.durationMinutes),
      timezone: request.timezone,
      expires: formatMoment(request.window.end, language, request.timezone, 'date'),
    };
    const base = { organizationId, actionKey: INTERVIEW_SCHEDULING_ACTION };
    const message = renderMessage('scheduling_invitation', language, params, { links: [{ kind: 'schedule', url }] });
    const runs: { emailRunId: string | null; smsRunId: string | null } = { emailRunId: null, smsRunId: null };
    try {
      const email = await this.ports.email.sendEmail({
        ...base,
        idempotencyKey: `scheduling-link-${request.id}-email`,
        to: { name: request.candidate.name, email: request.candidate.email },
        ...message,
      });
      runs.emailRunId = email.deliveryId;
      if (request.candidate.phone && (await this.ports.smsAvailable(organizationId))) {
        const sms: Delivery = await this.ports.sms.sendSms({
          ...base,
          idempotencyKey: `scheduling-link-${request.id}-sms`,
          to: request.candidate.phone,
          text: `${message.subject}: ${url}`,
        });
        runs.smsRunId = sms.deliveryId;
      }
    } catch (error) {
      // Nothing reached the candidate and the mail server is away (503): no request is left
      // behind, so the host's retry makes the one request rather than a second.
      if (!runs.emailRunId && (!isDomainError(error) || error.kind === 'upstream')) {
        await this.requests.remove(organizationId, request.id);
        throw error;
      }
      // The request exists and its link works; the run on record says why a message did not go.
      if (!isDomainError(error)) throw error;
      this.logger.warn({ organizationId, requestId: request.id, reason: error.code }, 'a scheduling link could not be sent');
    }
    await this.requests.update(organizationId, request.id, runs, this.now());
    return { ...request, ...runs, url };
  }

  async get(organizationId: string, id: string): Promise<SchedulingRequest & { url: string; booked?: TimeRange }> {
    const request = await this.requests.get(organizationId, id);
    if (!request) throw notFound('scheduling_request', id);
    const booking = await this.bookings.liveBooking(organizationId, id);
    return { ...request, url: this.url(request), ...(booking ? { booked: booking.slot } : {}) };
  }

  /** The page behind the link: what is booked, and the times still open. */
  async view(token: string): Promise<SchedulingView> {
    const request = await this.open(token);
    const organizationName = await this.ports.organizationName(request.organizationId);
    const booking = await this.bookings.liveBooking(request.organizationId, request.id);
    if (request.status === 'cancelled') return { request, slots: [], organizationName };
    const interviewers = await this.calendars(request);
    const slots = (
      await offeredSlots(
        interviewers,
        {
          window: request.window,
          durationMinutes: request.durationMinutes,
          stepMinutes: this.options.stepMinutes,
          bufferMinutes: this.options.bufferMinutes,
          notBefore: new Date(this.now().getTime() + this.options.noticeMinutes * MINUTE),
        },
        await this.bookings.claimed(
          request.organizationId,
          interviewers.map((i) => i.key),
          request.window,
        ),
      )
    ).filter((s) => !booking || s.start.getTime() !== booking.slot.start.getTime());
    return { request, slots, organizationName, ...(booking ? { booked: booking.slot } : {}) };
  }

  /** Books the slot starting at `start` (or moves the booked interview there). */
  async book(token: string, start: Date): Promise<SchedulingView> {
    const request = await this.open(token);
    if (request.status === 'cancelled') throw new DomainError('conflict', 'scheduling_cancelled', 'This interview was cancelled; ask for a new link.');
    const slot = { start, end: new Date(start.getTime() + request.durationMinutes * MINUTE) };
    this.assertOffered(request, slot);
    const interview = await this.interview(request);
    const existing = await this.bookings.liveBooking(request.organizationId, request.id);
    const now = this.now();
    let event: CalendarEvent;
    let unfinished = false;
    if (existing) {
      if (existing.slot.start.getTime() === slot.start.getTime()) return this.view(token);
      // A booking through this link whose calendar writes are still running (the request is not
      // marked booked yet): moving it now would race those writes, so this pick is refused. One
      // left that way longer than any booking takes (its process stopped mid-way) is moved instead.
      unfinished = (await this.requests.get(request.organizationId, request.id))?.status === 'open';
      if (unfinished && now.getTime() - existing.updatedAt.getTime() < UNFINISHED_BOOKING_MS) throw bookingInProgress();
      event = await rescheduleBooking(this.bookings, interview, slot, now);
      if (unfinished) await this.requests.markBooked(request.organizationId, request.id, now);
    } else {
      const bookingId = newId('bkg');
      try {
        event = await bookSlot(this.bookings, interview, slot, { bookingId, now });
      } catch (error) {
        // The same time sent twice at once (a double click): the one booking stands, as when sent again later.
        if (isDomainError(error) && (error.code === 'slot_taken' || error.code === 'booking_in_progress')) {
          const live = await this.bookings.liveBooking(request.organizationId, request.id);
          if (live && live.slot.start.getTime() === slot.start.getTime()) return this.view(token);
        }
        throw error;
      }
      // The host withdrew the request while this booking ran: this booking's events go again and its
      // claim is released (a calendar that does not answer leaves it live: the host's next cancel call removes it).
      if (
        !(await this.requests.markBooked(request.organizationId, request.id, now)) &&
        (await this.requests.get(request.organizationId, request.id))?.status === 'cancelled'
      ) {
        for (const interviewer of interview.interviewers) await interviewer.calendar.deleteEvent(event.uid);
        await this.bookings.release(request.organizationId, bookingId);
        throw new DomainError('conflict', 'scheduling_cancelled', 'This interview was cancelled; ask for a new link.');
      }
    }
    await this.invite(request, event, 'REQUEST');
    // A stopped booking finished by this move never announced itself: it is scheduled now.
    if (existing && !unfinished)
      await this.publish('interview.rescheduled', request, { interview_id: request.id, starts_at: slot.start.toISOString() }, event.sequence);
    else await this.publish('interview.scheduled', request, this.scheduledPayload(request, slot), 0);
    return this.view(token);
  }

  /** The candidate cancels on their page (a request the host withdrew stays withdrawn). */
  async cancel(token: string): Promise<SchedulingView> {
    const request = await this.open(token);
    await this.end(request, { by: 'candidate', reason: null, at: this.now() });
    return this.view(token);
  }

  /**
   * The host withdraws the request (POST /v1/scheduling/requests/{id}/cancel): a booked
   * interview's events leave the interviewers' calendars, the candidate gets an iTIP CANCEL
   * (same UID, higher SEQUENCE) and `interview.canceled` is published with `cancelled_by: host`;
   * an open one just closes. The link then says the request was withdrawn. Idempotent: again,
   * it answers the cancelled request; a retry after a calendar did not answer finishes the job.
   */
  async withdraw(organizationId: string, id: string, reason: string | null): Promise<SchedulingRequest & { url: string; booked?: TimeRange }> {
    const request = await this.requests.get(organizationId, id);
    if (!request) throw notFound('scheduling_request', id);
    await this.end(request, { by: 'host', reason, at: this.now() });
    return this.get(organizationId, id);
  }

  /** Marks the request cancelled (the first cancellation stands), then cancels a booking still live. */
  private async end(request: SchedulingRequest, cancellation: Cancellation): Promise<void> {
    if (request.status !== 'cancelled') await this.requests.cancel(request.organizationId, request.id, cancellation);
    const current = (await this.requests.get(request.organizationId, request.id)) ?? request;
    // A booking still live: this call's, or one an earlier call left when a calendar did not answer.
    if (!(await this.bookings.liveBooking(request.organizationId, request.id))) return;
    const event = await cancelBooking(this.bookings, await this.interview(current), this.now());
    if (!event) return;
    await this.invite(current, event, 'CANCEL');
    const by = current.cancellation?.by ?? cancellation.by;
    const reason = by === 'host' ? (current.cancellation?.reason ?? null) : null;
    await this.publish('interview.canceled', current, { interview_id: current.id, cancelled_by: by, ...(reason ? { reason } : {}) }, event.sequence);
  }

  private async open(token: string): Promise<SchedulingRequest> {
    const claims = verifySchedulingLink(this.linkKey, token, this.now());
    const request = await this.requests.get(claims.organizationId, claims.requestId);
    if (!request) throw new DomainError('not_found', 'link_not_found', 'Nothing is behind this link any more (the request was erased)');
    return request;
  }

  /**
   * The slot must be one the page could offer: on the grid, inside the window and everyone's
   * working hours, after the notice (a forged time is refused). Busy times are checked by the
   * booking itself, against the calendars as they are now.
   */
  private assertOffered(request: SchedulingRequest, slot: TimeRange): void {
    const offered =
      slot.start >= request.window.start &&
      slot.end <= request.window.end &&
      slot.start.getTime() >= this.now().getTime() + this.options.noticeMinutes * MINUTE &&
      openSlots({
        window: slot,
        durationMinutes: request.durationMinutes,
        stepMinutes: this.options.stepMinutes,
        interviewers: request.interviewers.map((i) => ({ zone: i.timezone, hours: i.hours, busy: [] })),
      }).length > 0;
    if (!offered) throw new DomainError('invalid', 'slot_not_offered', 'This time is not one of those offered; pick one on the page', { param: 'start' });
  }

  private async calendars(request: SchedulingRequest): Promise<InterviewerCalendar[]> {
    return Promise.all(
      request.interviewers.map(async (i) => ({
        key: i.calendarUrl ? `${i.connectionId} ${i.calendarUrl}` : i.connectionId,
        person: { name: i.name, email: i.email },
        zone: i.timezone,
        hours: i.hours,
        calendar: await this.ports.calendar(request.organizationId, i),
      })),
    );
  }

  private async interview(request: SchedulingRequest): Promise<Interview> {
    return {
      organizationId: request.organizationId,
      requestId: request.id,
      summary: request.title,
      organizer: request.organizer,
      candidate: { name: request.candidate.name, email: request.candidate.email },
      timezone: request.timezone,
      interviewers: await this.calendars(request),
    };
  }

  private async invite(request: SchedulingRequest, event: CalendarEvent, method: 'REQUEST' | 'CANCEL'): Promise<void> {
    try {
      await sendInvitation(this.ports.email, {
        organizationId: request.organizationId,
        actionKey: INTERVIEW_SCHEDULING_ACTION,
        method,
        event: { ...event, url: this.url(request) },
        to: { name: request.candidate.name, email: request.candidate.email },
        language: request.language,
      });
    } catch (error) {
      // The calendars hold the interview; the failed run says the invitation did not go.
      if (!isDomainError(error) || error.kind === 'upstream') throw error;
      this.logger.warn({ organizationId: request.organizationId, requestId: request.id, reason: error.code }, 'an interview invitation could not be sent');
    }
  }

  private scheduledPayload(request: SchedulingRequest, slot: TimeRange) {
    return {
      interview_id: request.id,
      application_id: request.applicationId,
      candidate: {
        name: request.candidate.name,
        email: request.candidate.email,
        ...(request.candidate.phone ? { phone: request.candidate.phone } : {}),
        language: request.language,
      },
      starts_at: slot.start.toISOString(),
      duration_minutes: request.durationMinutes,
      title: request.title,
      timezone: request.timezone,
      interviewers: request.interviewers.map((i) => ({ name: i.name, email: i.email })),
    };
  }

  private async publish(event: string, request: SchedulingRequest, payload: object, sequence: number): Promise<void> {
    await this.events
      .publish(event, request.organizationId, payload, { dedupeKey: `${event}:${request.id}:${sequence}` })
      .catch((error: Error) => this.logger.warn({ requestId: request.id, event, err: error.message }, 'publishing a scheduling event failed'));
  }

  private url(request: SchedulingRequest): string {
    const token = signSchedulingLink(this.linkKey, { organizationId: request.organizationId, requestId: request.id, expiresAt: request.linkExpiresAt });
    return `${this.options.baseUrl.replace(/\/$/, '')}/v1/schedule?token=${token}`;
  }
}
