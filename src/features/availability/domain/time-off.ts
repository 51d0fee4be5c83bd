/**
 * Time off the host reports (a person, a span, an optional reason): it blocks interview slots
 * and is written into the person's calendar as an event the plugin owns. All-day time off
 * is given as dates in the person's zone and runs from the first day's midnight to the
 * midnight after the last day there (DST-safe: luxon resolves each midnight in the zone).
 */
import { createHash } from 'node:crypto';
import { DateTime, IANAZone } from 'luxon';
import { z } from 'zod';
import { DomainError } from '../../../kernel/errors';
import type { CalendarEvent, TimeRange } from '../../scheduling/domain/calendar-port';

const MAX_SPAN_DAYS = 366;

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD');

export const timeOffPayload = z
  .object({
    time_off_id: z.string().min(1).max(200),
    person: z.object({ email: z.email().max(320), name: z.string().min(1).max(200).optional() }),
    starts_at: z.iso.datetime({ offset: true }).optional(),
    ends_at: z.iso.datetime({ offset: true }).optional(),
    start_date: date.optional(),
    /** Inclusive: the last day off. */
    end_date: date.optional(),
    timezone: z
      .string()
      .max(100)
      .refine((zone) => IANAZone.isValidZone(zone), 'not an IANA time zone'),
    reason: z.string().max(500).optional(),
  })
  .superRefine((p, ctx) => {
    const timed = p.starts_at !== undefined || p.ends_at !== undefined;
    const allDay = p.start_date !== undefined || p.end_date !== undefined;
    if (timed === allDay) ctx.addIssue({ code: 'custom', message: 'give starts_at and ends_at, or start_date and end_date', path: ['starts_at'] });
    else if (timed && (!p.starts_at || !p.ends_at)) ctx.addIssue({ code: 'custom', message: 'starts_at and ends_at go together', path: ['ends_at'] });
    else if (allDay && (!p.start_date || !p.end_date)) ctx.addIssue({ code: 'custom', message: 'start_date and end_date go together', path: ['end_date'] });
  });

export const timeOffCancelled = z.object({ time_off_id: z.string().min(1).max(200) });

export type TimeOffPayload = z.infer<typeof timeOffPayload>;

export interface TimeOff extends TimeRange {
  organizationId: string;
  timeOffId: string;
  email: string;
  name?: string;
  allDay: boolean;
  timezone: string;
  reason?: string;
  status: 'active' | 'cancelled';
  sequence: number;
  /** Of what the host sent: the same report twice is one version, a change a new one. */
  digest: string;
}

export function timeOffSpan(p: TimeOffPayload): TimeRange & { allDay: boolean } {
  let start: DateTime;
  let end: DateTime;
  const allDay = p.start_date !== undefined;
  if (allDay) {
    start = DateTime.fromISO(p.start_date!, { zone: p.timezone }).startOf('day');
    end = DateTime.fromISO(p.end_date!, { zone: p.timezone }).startOf('day').plus({ days: 1 });
    if (!start.isValid || !end.isValid) throw new DomainError('invalid', 'invalid_payload', 'start_date: not a calendar date', { param: 'start_date' });
  } else {
    start = DateTime.fromISO(p.starts_at!);
    end = DateTime.fromISO(p.ends_at!);
  }
  if (end <= start) throw new DomainError('invalid', 'invalid_payload', 'the time off ends before it starts', { param: allDay ? 'end_date' : 'ends_at' });
  if (end.diff(start, 'days').days > MAX_SPAN_DAYS)
    throw new DomainError('invalid', 'invalid_payload', `time off spans at most ${MAX_SPAN_DAYS} days`, { param: allDay ? 'end_date' : 'ends_at' });
  return { start: start.toJSDate(), end: end.toJSDate(), allDay };
}

export const payloadDigest = (p: TimeOffPayload): string =>
  createHash('sha256')
    .update(
      JSON.stringify([
        p.person.email.toLowerCase(),
        p.person.name ?? null,
        p.starts_at ?? null,
        p.ends_at ?? null,
        p.start_date ?? null,
        p.end_date ?? null,
        p.timezone,
        p.reason ?? null,
      ]),
    )
    .digest('hex')
    .slice(0, 32);

/** The UID names the organization and the host's id, hashed: stable across updates, nothing personal in it. */
export const timeOffUid = (organizationId: string, timeOffId: string): string =>
  `toff-${createHash('sha256').update(`${organizationId}\n${timeOffId}`).digest('hex').slice(0, 32)}@hiring-integrations`;

/** The days of an all-day time off in its zone: the first day and the day after the last (DTEND is exclusive). */
export const allDayDates = (span: TimeRange & { timezone: string }): { startDate: string; endDate: string } => ({
  startDate: DateTime.fromJSDate(span.start, { zone: span.timezone }).toISODate()!,
  endDate: DateTime.fromJSDate(span.end, { zone: span.timezone }).toISODate()!,
});

/**
 * The event in the person's calendar: "Out of office", opaque; all-day time off as an all-day
 * event (dates, not the zone's midnights in UTC: a client elsewhere still shows whole days). The reason stays with the
 * plugin (it may be medical): the calendar may be shared with people who should not read it.
 */
export const timeOffEvent = (timeOff: TimeOff): CalendarEvent => ({
  uid: timeOffUid(timeOff.organizationId, timeOff.timeOffId),
  sequence: timeOff.sequence,
  summary: 'Out of office',
  start: timeOff.start,
  end: timeOff.end,
  timezone: timeOff.timezone,
  ...(timeOff.allDay ? { allDay: allDayDates(timeOff) } : {}),
  organizer: { name: timeOff.name ?? timeOff.email, email: timeOff.email },
  attendees: [],
});

export interface TimeOffStore {
  find(organizationId: string, timeOffId: string): Promise<TimeOff | undefined>;
  /** Inserts or replaces the row (the caller chose sequence and status). */
  save(timeOff: TimeOff, now: Date): Promise<void>;
  /** Active time off of these people overlapping the range. */
  overlapping(organizationId: string, email: string, range: TimeRange): Promise<TimeRange[]>;
}

export const TIME_OFF_STORE = Symbol('TimeOffStore');
