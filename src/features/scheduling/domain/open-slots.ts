/**
 * Open interview slots, the way GoodTime and Calendly compute them: the times inside the
 * window where every interviewer is within their working hours (in their own time zone) and
 * free, minus time off, with a buffer around busy times and a minimum notice. Pure: times in,
 * slots out. Working hours are wall-clock times resolved per day with luxon, so a 09:00–17:00
 * day is 09:00–17:00 local on either side of a DST change (a boundary inside a DST gap,
 * e.g. 02:30 on a spring-forward night, moves forward with the clock, as luxon does).
 */
import { DateTime } from 'luxon';
import type { TimeRange } from './calendar-port';

/** Weekday 1 (Monday) … 7 (Sunday), as ISO 8601 counts, → wall-clock ranges `HH:mm`–`HH:mm`. */
export type WeeklyHours = Partial<Record<1 | 2 | 3 | 4 | 5 | 6 | 7, readonly (readonly [string, string])[]>>;

export interface Interviewer {
  zone: string;
  hours: WeeklyHours;
  busy: readonly TimeRange[];
}

export interface SlotQuery {
  window: TimeRange;
  durationMinutes: number;
  /** Slot starts fall on multiples of this many minutes (UTC-aligned, so :00, :15, :30…). */
  stepMinutes: number;
  interviewers: readonly Interviewer[];
  /** Kept free around every busy time. */
  bufferMinutes?: number;
  /** No slot starts before this (the minimum notice). */
  notBefore?: Date;
}

const MINUTE = 60_000;

const minutesOf = (hhmm: string): { hour: number; minute: number } => {
  const [hour, minute] = hhmm.split(':').map(Number);
  return { hour: hour!, minute: minute! };
};

/** The interviewer's working intervals (UTC instants) that touch the range. */
export function workingIntervals(interviewer: Interviewer, range: TimeRange): TimeRange[] {
  const out: TimeRange[] = [];
  let day = DateTime.fromJSDate(range.start, { zone: interviewer.zone }).startOf('day').minus({ days: 1 });
  const last = DateTime.fromJSDate(range.end, { zone: interviewer.zone }).startOf('day').plus({ days: 1 });
  while (day <= last) {
    for (const [from, to] of interviewer.hours[day.weekday as 1] ?? []) {
      const start = day.set(minutesOf(from)).toJSDate();
      // 24:00 is the end of the day.
      const end = to === '24:00' ? day.plus({ days: 1 }).startOf('day').toJSDate() : day.set(minutesOf(to)).toJSDate();
      if (end > start && end > range.start && start < range.end) out.push({ start, end });
    }
    day = day.plus({ days: 1 });
  }
  return merge(out);
}

/** Overlapping or touching intervals as one (two ranges of a day may overlap). */
export function merge(intervals: readonly TimeRange[]): TimeRange[] {
  const sorted = [...intervals].sort((x, y) => x.start.getTime() - y.start.getTime());
  const out: TimeRange[] = [];
  for (const i of sorted) {
    const last = out.at(-1);
    if (last && i.start <= last.end) {
      if (i.end > last.end) out[out.length - 1] = { start: last.start, end: i.end };
    } else out.push(i);
  }
  return out;
}

/** `a` minus every interval of `b` (both sorted or not); answers sorted, disjoint intervals. */
export function subtract(a: readonly TimeRange[], b: readonly TimeRange[]): TimeRange[] {
  let pieces = [...a].sort((x, y) => x.start.getTime() - y.start.getTime());
  for (const cut of b) {
    pieces = pieces.flatMap((p) => {
      if (cut.end <= p.start || cut.start >= p.end) return [p];
      const left = cut.start > p.start ? [{ start: p.start, end: cut.start }] : [];
      const right = cut.end < p.end ? [{ start: cut.end, end: p.end }] : [];
      return [...left, ...right];
    });
  }
  return pieces;
}

/** Where every list has time: the intersection of sorted, disjoint interval lists. */
export function intersect(lists: readonly TimeRange[][]): TimeRange[] {
  if (lists.length === 0) return [];
  return lists.slice(1).reduce((acc, list) => {
    const out: TimeRange[] = [];
    for (const a of acc) {
      for (const b of list) {
        const start = a.start > b.start ? a.start : b.start;
        const end = a.end < b.end ? a.end : b.end;
        if (start < end) out.push({ start, end });
      }
    }
    return out.sort((x, y) => x.start.getTime() - y.start.getTime());
  }, lists[0]!);
}

export function openSlots(query: SlotQuery): TimeRange[] {
  const duration = query.durationMinutes * MINUTE;
  const step = query.stepMinutes * MINUTE;
  const buffer = (query.bufferMinutes ?? 0) * MINUTE;
  const earliest = Math.max(query.window.start.getTime(), query.notBefore?.getTime() ?? -Infinity);
  const free = intersect(
    query.interviewers.map((i) => {
      const padded = i.busy.map((b) => ({ start: new Date(b.start.getTime() - buffer), end: new Date(b.end.getTime() + buffer) }));
      return subtract(workingIntervals(i, query.window), padded);
    }),
  );
  const slots: TimeRange[] = [];
  for (const interval of free) {
    const from = Math.max(interval.start.getTime(), earliest);
    for (let t = Math.ceil(from / step) * step; t + duration <= Math.min(interval.end.getTime(), query.window.end.getTime()); t += step) {
      slots.push({ start: new Date(t), end: new Date(t + duration) });
    }
  }
  return slots;
}
