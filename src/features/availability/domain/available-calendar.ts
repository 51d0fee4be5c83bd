/**
 * An interviewer's calendar as slot computation sees it when the organization holds
 * `scheduling.availability_sync`: busy times from the synced cache while it is fresh
 * (FRESH_FOR_MS, and within the last full read), else read live from the server, plus the
 * person's time off either way. Writes and the booking's last check (`liveBusy`) go to the server.
 * A calendar the organization stopped following is not read at all: only time off blocks.
 */
import type { BusyInterval, CalendarConnector, CalendarEvent, TimeRange } from '../../scheduling/domain/calendar-port';
import type { TimeOffStore } from './time-off';
import { cacheAnswers, type CalendarRef, type TrackedCalendarStore } from './tracked-calendar';

export class AvailableCalendar implements CalendarConnector {
  constructor(
    private readonly inner: CalendarConnector,
    private readonly ref: CalendarRef & { email: string },
    private readonly tracked: TrackedCalendarStore,
    private readonly timeOff: TimeOffStore,
    private readonly now: () => Date,
  ) {}

  async busy(range: TimeRange): Promise<BusyInterval[]> {
    const tracked = await this.tracked.find(this.ref);
    // A calendar the organization stopped following blocks nothing; the person's time off still does.
    if (tracked?.stoppedAt) return this.away(range);
    const busy = cacheAnswers(tracked, range, this.now()) ? await this.tracked.busy(tracked, range) : await this.inner.busy(range);
    return [...busy, ...(await this.away(range))];
  }

  async liveBusy(range: TimeRange): Promise<BusyInterval[]> {
    if ((await this.tracked.find(this.ref))?.stoppedAt) return this.away(range);
    return [...(await this.inner.busy(range)), ...(await this.away(range))];
  }

  calendars() {
    return this.inner.calendars();
  }

  putEvent(event: CalendarEvent) {
    return this.inner.putEvent(event);
  }

  deleteEvent(uid: string) {
    return this.inner.deleteEvent(uid);
  }

  changes(state?: string) {
    return this.inner.changes(state);
  }

  private away(range: TimeRange): Promise<BusyInterval[]> {
    return this.timeOff.overlapping(this.ref.organizationId, this.ref.email, range);
  }
}
