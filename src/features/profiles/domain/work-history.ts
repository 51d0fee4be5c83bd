/**
 * The candidate's work history as imported (SPEC 1.2.3): each position with title,
 * company, start date, end date (null while current) and the provider's `verified` flag
 * when it gives one; newest first (latest start, a current position before an ended one).
 */
import type { ProviderPosition } from './provider-profile';

export interface WorkHistoryEntry {
  title: string;
  company: string;
  start_date: string;
  end_date: string | null;
  /** Only when the provider says; absent means "not stated", not "unverified". */
  verified?: boolean;
}

export function toWorkHistory(positions: readonly ProviderPosition[]): WorkHistoryEntry[] {
  return positions
    .map((p) => ({
      title: p.title,
      company: p.company,
      start_date: p.start_date.slice(0, 10),
      end_date: p.end_date === null ? null : p.end_date.slice(0, 10),
      ...(typeof p.verified === 'boolean' ? { verified: p.verified } : {}),
    }))
    .sort((a, b) => b.start_date.localeCompare(a.start_date) || (a.end_date === null ? -1 : b.end_date === null ? 1 : b.end_date.localeCompare(a.end_date)));
}
