/**
 * An interviewer calendar kept in sync: which connection (and which of its calendars), whose
 * it is (the email time off is matched by), the opaque sync state the connector handed back,
 * and when it was last read. Its busy intervals (start, end, UID: nothing else) live beside it.
 */
import type { BusyInterval, CalendarChanges, TimeRange } from '../../scheduling/domain/calendar-port';

export const AVAILABILITY_SYNC_ACTION = 'scheduling.availability_sync';

/** How often the repeating job reads each calendar's changes. */
export const SYNC_INTERVAL_MS = 5 * 60_000;
/** The cache answers slot queries while its last sync is at most this old (one missed sync tolerated); else the calendar is read live. */
export const FRESH_FOR_MS = 15 * 60_000;
/** A full read again after this long, so recurring events stay expanded far enough ahead. */
export const FULL_RESYNC_AFTER_MS = 30 * 86_400_000;
/** A calendar failing again and again waits longer each time (doubling), at most this long: fewer failed runs and action_run.failed events. */
export const MAX_FAILURE_BACKOFF_MS = 6 * 3600_000;

/** Extra wait before the next try after `failures` failures in a row: 0, 5, 15, 35 … minutes beyond the interval, at most 6 hours. */
export const failureBackoffMs = (failures: number): number => Math.min(SYNC_INTERVAL_MS * (2 ** Math.max(0, failures - 1) - 1), MAX_FAILURE_BACKOFF_MS);

export interface CalendarRef {
  organizationId: string;
  connectionId: string;
  /** Another calendar of the connection's account; absent for the connection's own. */
  calendarUrl?: string;
}

export interface TrackedCalendar extends CalendarRef {
  id: string;
  email: string;
  syncState?: string;
  syncedAt?: Date;
  fullSyncedAt?: Date;
  coversUntil?: Date;
  lastErrorCode?: string;
  /** Failed syncs in a row. */
  failures: number;
  /** When the organization stopped following it: not synced, its busy times block no slot (until resumed). */
  stoppedAt?: Date;
  createdAt: Date;
}

export interface TrackedCalendarStore {
  /** Starts following the calendar (once; a later call with another email updates the owner). */
  enroll(ref: CalendarRef, email: string, now: Date): Promise<TrackedCalendar>;
  find(ref: CalendarRef): Promise<TrackedCalendar | undefined>;
  /** The organization's calendar with this id. */
  get(organizationId: string, id: string): Promise<TrackedCalendar | undefined>;
  /** Stops following it (once): drops its cached busy rows and sync state, so a resume starts with a full read. */
  stop(calendar: TrackedCalendar, now: Date): Promise<void>;
  /** Follows it again: the job reads it first (a full read), its failures forgotten. */
  resume(calendar: TrackedCalendar): Promise<void>;
  byEmail(organizationId: string, email: string): Promise<TrackedCalendar[]>;
  /** Followed (not stopped) calendars the job has not looked at since `before` (or never), longest waiting first. */
  due(before: Date, limit: number): Promise<TrackedCalendar[]>;
  /** The job looked at it without syncing (no license): it waits its turn again, its cache untouched. */
  markChecked(calendar: TrackedCalendar, now: Date): Promise<void>;
  /** Stores what changed and the new state in one transaction; a full answer replaces every busy row. */
  apply(calendar: TrackedCalendar, changes: CalendarChanges, now: Date): Promise<void>;
  /** Records the failure; the next try waits the interval plus failureBackoffMs. */
  markFailed(calendar: TrackedCalendar, code: string, now: Date): Promise<void>;
  busy(calendar: TrackedCalendar, range: TimeRange): Promise<BusyInterval[]>;
  /** The organization's followed calendars by id, after `startingAfter`; one more than `limit` tells there are more. */
  list(organizationId: string, page: { limit: number; startingAfter?: string }): Promise<TrackedCalendar[]>;
}

export const TRACKED_CALENDAR_STORE = Symbol('TrackedCalendarStore');

/** Whether the cache may answer for `range` at `now`: synced recently, and the range within the last full read. */
export function cacheAnswers(calendar: TrackedCalendar | undefined, range: TimeRange, now: Date): calendar is TrackedCalendar {
  if (calendar?.stoppedAt || !calendar?.syncedAt || !calendar.coversUntil) return false;
  return now.getTime() - calendar.syncedAt.getTime() <= FRESH_FOR_MS && range.end <= calendar.coversUntil;
}
