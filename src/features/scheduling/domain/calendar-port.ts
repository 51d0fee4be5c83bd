/**
 * The calendar port a `calendar` connection fills (CalDAV today): read busy times, write the
 * events the plugin owns (by UID), and follow changes incrementally. Upstream trouble is an
 * `upstream` DomainError (retried), a refusal retrying cannot change a `conflict` one.
 */

export interface TimeRange {
  start: Date;
  end: Date;
}

export interface BusyInterval extends TimeRange {
  /** The event's UID where the busy time came from an event (absent from a free/busy answer). */
  uid?: string;
}

export interface CalendarPerson {
  name: string;
  email: string;
}

/** An event the plugin owns: the UID is stable for its whole life, SEQUENCE grows with each change. */
export interface CalendarEvent {
  uid: string;
  sequence: number;
  summary: string;
  description?: string;
  location?: string;
  /** A link the event points to (the meeting room, the scheduling page). */
  url?: string;
  start: Date;
  end: Date;
  /** IANA zone the people are told the time in (e.g. Europe/Berlin); the iCalendar itself is in UTC. */
  timezone?: string;
  organizer: CalendarPerson;
  attendees: CalendarPerson[];
  status?: 'confirmed' | 'tentative' | 'cancelled';
  /** A transparent event does not make its people busy (default: opaque, it blocks the time). */
  transparent?: boolean;
  /**
   * Whole days (time off): written as DTSTART;VALUE=DATE with an exclusive DTEND, so every
   * client shows them as all-day in its own zone; `start`/`end` are the span in `timezone`.
   */
  allDay?: { startDate: string; endDate: string };
}

export interface CalendarInfo {
  url: string;
  displayName: string;
  /** The collection's change tag and RFC 6578 sync token, where the server gives them. */
  ctag?: string;
  syncToken?: string;
}

/** What changed since the last sync `state` (opaque; store it and pass it back). */
export interface CalendarChanges {
  state: string;
  /** True when the server could not answer incrementally and `busy` is the whole calendar. */
  full: boolean;
  /** Busy intervals of the events created or changed since `state`, keyed by event URL. */
  changed: { url: string; busy: BusyInterval[] }[];
  /** URLs of events removed since `state`. */
  removed: string[];
  /** A full read describes the calendar up to this time (events further ahead are not in `changed`). */
  horizon?: Date;
}

export interface CalendarConnector {
  calendars(): Promise<CalendarInfo[]>;
  /** Busy times of the connection's calendar in the range (free-busy-query, or computed from its events). */
  busy(range: TimeRange): Promise<BusyInterval[]>;
  /**
   * Busy times read from the server now, where `busy` may answer from a synced cache (see
   * features/availability): what a booking checks just before it claims a slot.
   */
  liveBusy?(range: TimeRange): Promise<BusyInterval[]>;
  /** Creates or replaces the event with this UID; answers its URL and ETag. */
  putEvent(event: CalendarEvent): Promise<{ url: string; etag?: string }>;
  /** Removes the event with this UID (already gone counts as removed). */
  deleteEvent(uid: string): Promise<void>;
  /** Changes since `state` (sync-token, else ctag and a full read). */
  changes(state?: string): Promise<CalendarChanges>;
  /**
   * Another calendar the same account can reach (a shared or delegated one: one connection
   * for a team's calendars). It must be among the account's calendars, else the first use
   * fails with `connection_protocol_error`.
   */
  withCalendar?(url: string): CalendarConnector;
}
