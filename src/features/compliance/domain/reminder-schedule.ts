/**
 * When an organization hears of an expiry: `credential.expiring` at each of its reminder
 * thresholds (days before; default 30 and 7), `credential.expired` on the day. Pure.
 */
import { z } from 'zod';
import type { ComplianceStatus, HeldCredential } from './held-credential';

export const DEFAULT_REMINDER_DAYS = [30, 7];
export const MAX_REMINDER_DAYS = 365;
const DAY_MS = 86_400_000;

export const reminderDaysSchema = z
  .array(z.number().int().min(1).max(MAX_REMINDER_DAYS))
  .max(5)
  .refine((days) => new Set(days).size === days.length, 'reminder days must be unique')
  .meta({ description: 'Days before an expiry when credential.expiring fires (at most 5, 1–365)', example: [30, 7] });

export interface ComplianceSettings {
  reminderDays: number[];
}

export function statusAt(expiresAt: Date, now: Date, expiringWithinDays: number): ComplianceStatus {
  if (expiresAt.getTime() <= now.getTime()) return 'expired';
  return expiresAt.getTime() <= now.getTime() + expiringWithinDays * DAY_MS ? 'expiring' : 'compliant';
}

export interface DueNotices {
  /** The threshold whose credential.expiring goes out now (null: none). */
  expiring: number | null;
  /** Every threshold now behind us: recorded as noticed, so none goes out late. */
  covered: number[];
  expired: boolean;
}

/** What is owed at `now` and not sent yet. A threshold crossed while already expired is not sent: the expiry says more. */
export function dueNotices(
  credential: Pick<HeldCredential, 'expiresAt' | 'expiringNotices' | 'expiredNoticeAt'>,
  now: Date,
  reminderDays: number[],
): DueNotices {
  const expired = credential.expiresAt.getTime() <= now.getTime();
  if (expired) return { expiring: null, covered: credential.expiringNotices, expired: credential.expiredNoticeAt === null };
  const left = credential.expiresAt.getTime() - now.getTime();
  const crossed = reminderDays.filter((days) => left <= days * DAY_MS && !credential.expiringNotices.includes(days));
  // Only the nearest threshold crossed is sent when several were crossed at once (after downtime).
  return {
    expiring: crossed.length ? Math.min(...crossed) : null,
    covered: [...new Set([...credential.expiringNotices, ...crossed])].sort((a, b) => b - a),
    expired: false,
  };
}
