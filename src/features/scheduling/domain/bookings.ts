/**
 * Booking a slot a candidate picked, and cancelling it: the slot is first claimed in storage
 * (one row per interviewer calendar; the claim refuses any live booking overlapping it on those
 * calendars, so of two candidates racing for a slot, or for overlapping slots on a shared
 * interviewer, exactly one wins and the other gets `slot_taken`), then the event is written to every
 * interviewer's calendar under one UID. A calendar that refuses undoes the whole booking
 * (events already written removed, the claim released): never a half-booked interview.
 */
import { conflict } from '../../../kernel/errors';
import type { CalendarConnector, CalendarEvent, CalendarPerson, TimeRange } from './calendar-port';
import { openSlots, type SlotQuery, type WeeklyHours } from './open-slots';

/**
 * Another booking or move through the same link is under way (two times picked at once): the
 * first one stands; this one changed nothing. Answered like a taken time, with the page again.
 */
export const bookingInProgress = () =>
  conflict('booking_in_progress', 'Another time is being booked through this link at this moment; reload the page to see it.');

export interface InterviewerCalendar {
  /** Stable name of the calendar (its URL): claims lock and check overlaps per calendar. */
  key: string;
  person: CalendarPerson;
  zone: string;
  hours: WeeklyHours;
  calendar: CalendarConnector;
}

export interface BookingClaim {
  id: string;
  organizationId: string;
  requestId: string;
  calendarKeys: string[];
  eventUid: string;
  slot: TimeRange;
  candidate: CalendarPerson;
}

export interface BookingRepository {
  /**
   * Claims the slot on every calendar at once; throws conflict `slot_taken` when a live booking of
   * another request overlaps it on any of them (decided in storage, across processes),
   * `booking_in_progress` when the request already has a live booking (one per request).
   */
  claim(claim: BookingClaim, now: Date): Promise<void>;
  /** Drops a claim whose calendar writes failed. */
  release(organizationId: string, id: string): Promise<void>;
  /** Times claimed on these calendars (a booking's calendar events may not be written yet). */
  claimed(organizationId: string, calendarKeys: readonly string[], window: TimeRange): Promise<Array<TimeRange & { calendarKey: string }>>;
  /** The live booking of a request, if any. */
  liveBooking(organizationId: string, requestId: string): Promise<(BookingClaim & { sequence: number; updatedAt: Date }) | undefined>;
  markCancelled(organizationId: string, id: string, sequence: number, now: Date): Promise<void>;
  /**
   * Moves a live booking to another slot at a higher `sequence`; throws conflict `slot_taken` when
   * another live booking overlaps that slot on its calendars, `booking_in_progress` when the booking is no longer below that SEQUENCE
   * (another move got there first).
   */
  move(organizationId: string, id: string, slot: TimeRange, sequence: number, now: Date): Promise<void>;
}

export interface Interview {
  organizationId: string;
  requestId: string;
  summary: string;
  organizer: CalendarPerson;
  candidate: CalendarPerson;
  /** The candidate's zone, the one the invitation names the time in. */
  timezone: string;
  interviewers: InterviewerCalendar[];
}

/** Slots offered to the candidate: every interviewer's working hours minus their calendar's busy times. */
export async function offeredSlots(
  interviewers: readonly InterviewerCalendar[],
  query: Omit<SlotQuery, 'interviewers'>,
  claimed: ReadonlyArray<TimeRange & { calendarKey: string }> = [],
): Promise<TimeRange[]> {
  const busy = await Promise.all(interviewers.map((i) => i.calendar.busy(query.window)));
  // A slot another candidate has just claimed is taken even before its events reach the calendars.
  const held = (i: InterviewerCalendar) => claimed.filter((c) => c.calendarKey === i.key).map((c) => ({ start: c.start, end: c.end }));
  return openSlots({ ...query, interviewers: interviewers.map((i, n) => ({ zone: i.zone, hours: i.hours, busy: [...busy[n]!, ...held(i)] })) });
}

export const interviewEvent = (interview: Interview, uid: string, sequence: number, slot: TimeRange): CalendarEvent => ({
  uid,
  sequence,
  summary: interview.summary,
  start: slot.start,
  end: slot.end,
  timezone: interview.timezone,
  organizer: interview.organizer,
  attendees: [interview.candidate, ...interview.interviewers.map((i) => i.person)],
});

/**
 * Calendars change after the page was shown: the slot is checked against every interviewer's
 * busy times again before it is claimed (the interview's own event, when moving it, excepted).
 */
async function assertStillFree(interviewers: readonly InterviewerCalendar[], slot: TimeRange, ownUid?: string): Promise<void> {
  // Read live: a synced cache may be minutes behind the server.
  const busy = (await Promise.all(interviewers.map((i) => (i.calendar.liveBusy ? i.calendar.liveBusy(slot) : i.calendar.busy(slot))))).flat();
  if (busy.some((b) => (ownUid === undefined || b.uid !== ownUid) && b.start < slot.end && b.end > slot.start))
    throw conflict('slot_unavailable', 'An interviewer is no longer free at this time; pick another one.', { start: slot.start.toISOString() });
}

export async function bookSlot(
  repository: BookingRepository,
  interview: Interview,
  slot: TimeRange,
  ids: { bookingId: string; now: Date },
): Promise<CalendarEvent> {
  const eventUid = `itv-${ids.bookingId}@hiring-integrations`;
  await assertStillFree(interview.interviewers, slot);
  await repository.claim(
    {
      id: ids.bookingId,
      organizationId: interview.organizationId,
      requestId: interview.requestId,
      calendarKeys: interview.interviewers.map((i) => i.key),
      eventUid,
      slot,
      candidate: interview.candidate,
    },
    ids.now,
  );
  const event = interviewEvent(interview, eventUid, 0, slot);
  const written: InterviewerCalendar[] = [];
  try {
    for (const interviewer of interview.interviewers) {
      await interviewer.calendar.putEvent(event);
      written.push(interviewer);
    }
  } catch (error) {
    await Promise.allSettled(written.map((i) => i.calendar.deleteEvent(eventUid)));
    await repository.release(interview.organizationId, ids.bookingId);
    throw error;
  }
  return event;
}

/** Removes the events and frees the slot; answers the cancelled event (higher SEQUENCE) for the iTIP CANCEL. */
export async function cancelBooking(repository: BookingRepository, interview: Interview, now: Date): Promise<CalendarEvent | undefined> {
  const booking = await repository.liveBooking(interview.organizationId, interview.requestId);
  if (!booking) return undefined;
  for (const interviewer of interview.interviewers) await interviewer.calendar.deleteEvent(booking.eventUid);
  const sequence = booking.sequence + 1;
  await repository.markCancelled(interview.organizationId, booking.id, sequence, now);
  return { ...interviewEvent(interview, booking.eventUid, sequence, booking.slot), status: 'cancelled' };
}

/**
 * Moves the interview: same UID, SEQUENCE + 1, so every calendar and the candidate's client
 * replace the old event (RFC 5546). The new slot is claimed first (a taken one is `slot_taken`
 * and nothing changes); when a calendar refuses, the old time is written back (at a yet higher
 * SEQUENCE) and the claim returns to it.
 */
export async function rescheduleBooking(repository: BookingRepository, interview: Interview, slot: TimeRange, now: Date): Promise<CalendarEvent> {
  const booking = await repository.liveBooking(interview.organizationId, interview.requestId);
  if (!booking) throw conflict('booking_not_found', 'There is no booked interview to move; pick a time instead.');
  await assertStillFree(interview.interviewers, slot, booking.eventUid);
  const sequence = booking.sequence + 1;
  await repository.move(interview.organizationId, booking.id, slot, sequence, now);
  const event = interviewEvent(interview, booking.eventUid, sequence, slot);
  const written: InterviewerCalendar[] = [];
  try {
    for (const interviewer of interview.interviewers) {
      await interviewer.calendar.putEvent(event);
      written.push(interviewer);
    }
  } catch (error) {
    const restored = interviewEvent(interview, booking.eventUid, sequence + 1, booking.slot);
    await Promise.allSettled(written.map((i) => i.calendar.putEvent(restored)));
    await repository.move(interview.organizationId, booking.id, booking.slot, sequence + 1, now);
    throw error;
  }
  return event;
}
