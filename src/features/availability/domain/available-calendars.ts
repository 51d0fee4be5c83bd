/**
 * What scheduling calls for each interviewer calendar it reads: for an organization holding
 * `scheduling.availability_sync`, the calendar is followed by the sync (enrolled once per
 * process) and answered wrapped (AvailableCalendar); otherwise it is answered as it is.
 */
import type { CalendarConnector } from '../../scheduling/domain/calendar-port';
import { AvailableCalendar } from './available-calendar';
import type { TimeOffStore } from './time-off';
import type { CalendarRef, TrackedCalendarStore } from './tracked-calendar';

export const AVAILABLE_CALENDARS = Symbol('AvailableCalendars');

export class AvailableCalendars {
  private readonly enrolled = new Set<string>();

  constructor(
    private readonly calendars: TrackedCalendarStore,
    private readonly timeOff: TimeOffStore,
    private readonly licensed: (organizationId: string) => Promise<boolean>,
    private readonly now: () => Date,
  ) {}

  async wrap(ref: CalendarRef & { email: string }, calendar: CalendarConnector): Promise<CalendarConnector> {
    if (!(await this.licensed(ref.organizationId))) return calendar;
    const key = `${ref.organizationId}\n${ref.connectionId}\n${ref.calendarUrl ?? ''}\n${ref.email.toLowerCase()}`;
    if (!this.enrolled.has(key)) {
      await this.calendars.enroll(ref, ref.email, this.now());
      this.enrolled.add(key);
    }
    return new AvailableCalendar(calendar, ref, this.calendars, this.timeOff, this.now);
  }
}
