/**
 * Busy times from iCalendar text: from events (recurrences expanded with node-ical,
 * transparent and cancelled events skipped), or from a VFREEBUSY answer (RFC 5545 §3.8.2.6:
 * FREEBUSY periods of type BUSY, BUSY-TENTATIVE and BUSY-UNAVAILABLE). An all-day event (a
 * date, not a time) is busy for that whole day in the calendar's time zone.
 */
import { DateTime, IANAZone } from 'luxon';
import ical, { type VEvent } from 'node-ical';
import type { BusyInterval, TimeRange } from '../../features/scheduling/domain/calendar-port';

/**
 * A date-only value (an all-day event) as the start of that day in `zone`: node-ical builds
 * it at the process's local midnight, so its local fields are the date.
 */
const dayStartIn = (date: Date, zone: string): Date =>
  DateTime.fromObject({ year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate() }, { zone }).toJSDate();

const DAY_MS = 86_400_000;

/** `zone`: the calendar's time zone, which all-day events (dates) are days of. */
export function busyFromEvents(data: string, range: TimeRange, zone = 'UTC'): BusyInterval[] {
  const parsed = ical.sync.parseICS(data);
  const busy: BusyInterval[] = [];
  // A day further either side: an all-day instance is found by the process's local midnights, then placed in `zone`.
  const around = { from: new Date(range.start.getTime() - DAY_MS), to: new Date(range.end.getTime() + DAY_MS) };
  for (const component of Object.values(parsed)) {
    if (!component || component.type !== 'VEVENT') continue;
    const event = component as VEvent;
    if (event.transparency === 'TRANSPARENT' || event.status === 'CANCELLED') continue;
    for (const instance of ical.expandRecurringEvent(event, { ...around, expandOngoing: true })) {
      let start = new Date(instance.start);
      let end = new Date(instance.end ?? instance.start);
      if (instance.isFullDay) {
        start = dayStartIn(new Date(instance.start), zone);
        // DTEND is exclusive; none (or one not after DTSTART) means the one day (RFC 5545 §3.6.1).
        end =
          instance.end && new Date(instance.end) > new Date(instance.start)
            ? dayStartIn(new Date(instance.end), zone)
            : dayStartIn(new Date(new Date(instance.start).getTime() + DAY_MS), zone);
      }
      if (end > range.start && start < range.end) busy.push({ start, end, uid: event.uid });
    }
  }
  return busy;
}

/** The IANA zone a CALDAV:calendar-timezone (a VTIMEZONE) names, if it is one. */
export function calendarZone(vtimezone: string | undefined): string | undefined {
  const tzid = /^TZID[^:\r\n]*:([^\r\n]+)/m.exec(vtimezone ?? '')?.[1]?.trim();
  return tzid && IANAZone.isValidZone(tzid) ? tzid : undefined;
}

const utc = (text: string): Date => {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (!m) throw new Error(`not a UTC date-time: ${text}`);
  return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!));
};

/** ISO 8601 durations as RFC 5545 writes them (PT1H30M, P1D, P1W). */
const durationMs = (text: string): number => {
  const m = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(text);
  if (!m) throw new Error(`not a duration: ${text}`);
  const [, w, d, h, min, s] = m.map((x) => Number(x ?? 0));
  return ((((w! * 7 + d!) * 24 + h!) * 60 + min!) * 60 + s!) * 1000;
};

export function busyFromFreeBusy(data: string): BusyInterval[] {
  const unfolded = data.replace(/\r?\n[ \t]/g, '');
  const busy: BusyInterval[] = [];
  for (const line of unfolded.split(/\r?\n/)) {
    const m = /^FREEBUSY((?:;[^:]*)?):(.+)$/i.exec(line);
    if (!m) continue;
    const type = /FBTYPE=([A-Z-]+)/i.exec(m[1]!)?.[1]?.toUpperCase() ?? 'BUSY';
    if (type === 'FREE') continue;
    for (const period of m[2]!.split(',')) {
      const [from, to] = period.split('/');
      const start = utc(from!.trim());
      const end = to!.trim().startsWith('P') ? new Date(start.getTime() + durationMs(to!.trim())) : utc(to!.trim());
      busy.push({ start, end });
    }
  }
  return busy;
}
