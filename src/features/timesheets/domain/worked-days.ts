/**
 * From entries to worked minutes per workday. An entry belongs to the workday on which it
 * starts, in the placement's time zone (a night shift counts on the day it began, as payroll
 * systems do). Worked minutes = whole minutes between start and end, minus the unpaid break.
 */
import { invalid } from '../../../kernel/errors';
import type { WorkedDay } from './overtime';
import type { TimeEntry } from './timesheet';

const MAX_SHIFT_MINUTES = 24 * 60;

/** YYYY-MM-DD of an instant in a time zone. */
export function localDate(at: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(at).map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** The date `days` after a YYYY-MM-DD date. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Checks the entries against the week and each other; answers the minutes per workday. */
export function workedDays(entries: readonly TimeEntry[], periodStart: string, timeZone: string): WorkedDay[] {
  const periodEnd = addDays(periodStart, 6);
  const spans = entries.map((e, i) => {
    const start = Date.parse(e.start);
    const end = Date.parse(e.end);
    const param = `entries[${i}]`;
    if (!(end > start)) throw invalid('entry_invalid', `Entry ${i}: end must be after start`, param);
    const minutes = Math.floor((end - start) / 60_000);
    if (minutes > MAX_SHIFT_MINUTES) throw invalid('entry_invalid', `Entry ${i}: a shift is at most 24 hours`, param);
    if (e.breakMinutes >= minutes && minutes > 0) throw invalid('entry_invalid', `Entry ${i}: the break is as long as the shift`, param);
    const date = localDate(new Date(start), timeZone);
    if (date < periodStart || date > periodEnd)
      throw invalid('entry_outside_period', `Entry ${i} starts on ${date}, outside ${periodStart} – ${periodEnd}`, param);
    return { start, end, date, minutes: Math.max(0, minutes - e.breakMinutes), index: i };
  });
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  for (let i = 1; i < sorted.length; i += 1) {
    if (sorted[i]!.start < sorted[i - 1]!.end) throw invalid('entries_overlap', `Entries ${sorted[i - 1]!.index} and ${sorted[i]!.index} overlap`, 'entries');
  }
  return spans.map(({ date, minutes }) => ({ date, minutes }));
}
