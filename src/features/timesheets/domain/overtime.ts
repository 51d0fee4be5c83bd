/**
 * Overtime: how a week's worked minutes split into regular, overtime (1.5×) and double-time
 * (2×) minutes. Pure: no clock, no storage. Two rules (docs/hr-payroll-payouts.md):
 *
 * - `flsa_weekly` (US federal, 29 U.S.C. § 207): minutes beyond 40 hours in the workweek are
 *   overtime. No daily overtime, no double time.
 * - `california_daily` (Cal. Labor Code § 510): per workday, minutes beyond 8 hours up to 12
 *   are overtime and beyond 12 double time; then regular minutes beyond 40 in the week become
 *   overtime (counted in day order, so no minute is paid twice). The seventh-consecutive-day
 *   rule is not applied (a timesheet is one week; flag it to payroll if you need it).
 *
 * Minutes are whole: a punch's seconds are dropped, and nothing is rounded to quarter hours.
 */
export const OVERTIME_RULES = ['flsa_weekly', 'california_daily'] as const;
export type OvertimeRule = (typeof OVERTIME_RULES)[number];

export interface WorkedDay {
  /** The workday (YYYY-MM-DD in the placement's time zone). */
  date: string;
  minutes: number;
}

export interface HoursSplit {
  regular: number;
  overtime: number;
  doubleTime: number;
}

const WEEKLY_LIMIT = 40 * 60;
const DAILY_LIMIT = 8 * 60;
const DAILY_DOUBLE = 12 * 60;

export function splitHours(days: readonly WorkedDay[], rule: OvertimeRule): HoursSplit {
  const byDate = new Map<string, number>();
  for (const d of days) byDate.set(d.date, (byDate.get(d.date) ?? 0) + d.minutes);
  const ordered = [...byDate.entries()].sort(([a], [b]) => a.localeCompare(b));
  const total = ordered.reduce((s, [, m]) => s + m, 0);
  if (rule === 'flsa_weekly') {
    const overtime = Math.max(0, total - WEEKLY_LIMIT);
    return { regular: total - overtime, overtime, doubleTime: 0 };
  }
  let regular = 0;
  let overtime = 0;
  let doubleTime = 0;
  for (const [, minutes] of ordered) {
    const dayRegular = Math.min(minutes, DAILY_LIMIT);
    overtime += Math.min(Math.max(minutes - DAILY_LIMIT, 0), DAILY_DOUBLE - DAILY_LIMIT);
    doubleTime += Math.max(minutes - DAILY_DOUBLE, 0);
    // Weekly limit: regular minutes past 40 h in the week are overtime instead.
    const room = Math.max(0, WEEKLY_LIMIT - regular);
    regular += Math.min(dayRegular, room);
    overtime += dayRegular - Math.min(dayRegular, room);
  }
  return { regular, overtime, doubleTime };
}

/**
 * What the split costs at an hourly rate, in integer cents: rate × (regular + 1.5 × overtime
 * + 2 × double time) / 60, computed exactly in integers (in half-minutes) and rounded once,
 * half up, at the end: never per entry, so a timesheet is off by at most half a cent.
 */
export function amountFor(split: HoursSplit, rateCentsPerHour: number): number {
  const halfMinutes = 2 * split.regular + 3 * split.overtime + 4 * split.doubleTime;
  const numerator = BigInt(rateCentsPerHour) * BigInt(halfMinutes);
  return Number((numerator + 60n) / 120n);
}

/** Minutes as hours with two decimals (`37.50`), for documents and CSV; exact to the minute is kept in minutes. */
export const hoursOf = (minutes: number): string => (minutes / 60).toFixed(2);
