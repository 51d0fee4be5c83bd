/**
 * experience_summary from a work history: total years counts each day once even when
 * positions overlap (intervals are merged), rounded to one decimal; a position's first
 * and last days both count (its end date is the last day worked, a current one runs
 * through today); the current title and company come from the current position (no end
 * date; the latest started wins).
 */
import type { ProviderPosition } from './provider-profile';

export interface ExperienceSummary {
  total_years: number;
  current_title: string | null;
  current_company: string | null;
}

const DAY_MS = 86_400_000;
const DAYS_PER_YEAR = 365.25;

function dayNumber(date: string): number {
  const time = Date.parse(`${date.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(time)) throw new Error(`Invalid date: ${date}`);
  return Math.floor(time / DAY_MS);
}

export function summarizeExperience(positions: readonly ProviderPosition[], now: Date): ExperienceSummary {
  const today = Math.floor(now.getTime() / DAY_MS);
  // Half-open [first day, day after the last): adjacent positions join, a one-day position counts 1.
  const intervals = positions
    .map((p) => [dayNumber(p.start_date), Math.min(p.end_date ? dayNumber(p.end_date) : today, today) + 1] as [number, number])
    .filter(([start, end]) => end > start)
    .sort((a, b) => a[0] - b[0]);
  let days = 0;
  let current: [number, number] | undefined;
  for (const [start, end] of intervals) {
    if (current && start <= current[1]) {
      current[1] = Math.max(current[1], end);
      continue;
    }
    if (current) days += current[1] - current[0];
    current = [start, end];
  }
  if (current) days += current[1] - current[0];

  const ongoing = positions.filter((p) => p.end_date === null).sort((a, b) => dayNumber(b.start_date) - dayNumber(a.start_date))[0];
  return {
    total_years: Math.round((days / DAYS_PER_YEAR) * 10) / 10,
    current_title: ongoing?.title ?? null,
    current_company: ongoing?.company ?? null,
  };
}
