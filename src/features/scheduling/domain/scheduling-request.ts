/**
 * A scheduling request: the host asks that a candidate pick the time of an interview with
 * these interviewers (each through their own calendar connection), of this length, inside
 * this window. The candidate gets a signed link; the request lives until the link expires.
 */
import type { CalendarPerson, TimeRange } from './calendar-port';
import type { WeeklyHours } from './open-slots';

export const INTERVIEW_SCHEDULING_ACTION = 'scheduling.interview_scheduling';

export type SchedulingRequestStatus = 'open' | 'booked' | 'cancelled';

/** Who ended the request: the candidate on their page, or the host through the API (the page then says it was withdrawn). */
export type CancelledBy = 'candidate' | 'host';

export interface Cancellation {
  by: CancelledBy;
  /** The host's reason, kept by the plugin (the API, the event): never shown to the candidate. */
  reason: string | null;
  at: Date;
}

export interface RequestedInterviewer extends CalendarPerson {
  /** The interviewer's `calendar` connection (CalDAV): busy times are read there, the event is written there. */
  connectionId: string;
  /** The interviewer's calendar on that connection's account (a shared one); default the connection's calendar. */
  calendarUrl?: string;
  /** IANA zone of the working hours. */
  timezone: string;
  hours: WeeklyHours;
}

export interface SchedulingRequest {
  id: string;
  organizationId: string;
  applicationId: string;
  title: string;
  candidate: CalendarPerson & { phone: string | null };
  /** BCP 47 tag of the candidate's language (messages and the page). */
  language: string;
  /** The candidate's IANA zone: the page and the invitation show times in it. */
  timezone: string;
  durationMinutes: number;
  window: TimeRange;
  interviewers: RequestedInterviewer[];
  organizer: CalendarPerson;
  status: SchedulingRequestStatus;
  /** Set once the request is cancelled (null before, and for requests cancelled before it was recorded). */
  cancellation: Cancellation | null;
  emailRunId: string | null;
  smsRunId: string | null;
  linkExpiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

export interface SchedulingRequestRepository {
  /** Inserts the request; returns its id, or the id of the open request for the same application and window that won a race. */
  create(request: SchedulingRequest): Promise<string>;
  /** The open request for the application and exactly this window, if any. */
  findOpen(organizationId: string, applicationId: string, window: TimeRange): Promise<SchedulingRequest | undefined>;
  /** Removes a request no message was sent for (the create failed). */
  remove(organizationId: string, id: string): Promise<void>;
  get(organizationId: string, id: string): Promise<SchedulingRequest | undefined>;
  update(organizationId: string, id: string, changes: Partial<Pick<SchedulingRequest, 'status' | 'emailRunId' | 'smsRunId'>>, now: Date): Promise<void>;
  /** `open` → `booked`; false when the request is no longer open (withdrawn while the candidate booked). */
  markBooked(organizationId: string, id: string, now: Date): Promise<boolean>;
  /** Cancels a request not cancelled yet; false when it already was (the first cancellation stands). */
  cancel(organizationId: string, id: string, cancellation: Cancellation): Promise<boolean>;
}

export const SCHEDULING_REQUEST_REPOSITORY = Symbol('SchedulingRequestRepository');
export const SCHEDULING_OPTIONS = Symbol('SchedulingOptions');

export interface SchedulingOptions {
  baseUrl: string;
  /** Slot starts fall on multiples of this many minutes. */
  stepMinutes: number;
  /** Kept free around the interviewers' busy times. */
  bufferMinutes: number;
  /** No slot starts sooner than this after now. */
  noticeMinutes: number;
}
