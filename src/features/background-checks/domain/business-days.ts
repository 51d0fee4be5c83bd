/**
 * Business days for the FCRA waiting period: Monday to Friday, counted in UTC, public holidays
 * not skipped (the period is a minimum; an organization wanting holidays counted sets more days).
 */
const DAY_MS = 86_400_000;

const isWeekend = (d: Date) => d.getUTCDay() === 0 || d.getUTCDay() === 6;

/** The instant `days` whole business days after `from` (same time of day; a weekend start counts from Monday). */
export function addBusinessDays(from: Date, days: number): Date {
  let at = new Date(from.getTime());
  let left = days;
  while (left > 0) {
    at = new Date(at.getTime() + DAY_MS);
    if (!isWeekend(at)) left--;
  }
  return at;
}

/** Business days that have fully passed between two instants (weekdays whose end lies in (from, to]). */
export function businessDaysBetween(from: Date, to: Date): number {
  let count = 0;
  let at = new Date(from.getTime() + DAY_MS);
  while (at.getTime() <= to.getTime()) {
    if (!isWeekend(at)) count++;
    at = new Date(at.getTime() + DAY_MS);
  }
  return count;
}
