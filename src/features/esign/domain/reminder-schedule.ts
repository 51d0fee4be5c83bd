/**
 * Reminders to sign, as DocuSign and Dropbox Sign send them: an unsigned envelope's signer is
 * reminded `firstAfterDays` after it was sent, then every `everyDays`, and (with `expiryNotice`)
 * once more a day before it expires, instead of a reminder in that last day. Pure: the sweep
 * asks which slot is due at an instant and claims it in the database.
 */
export interface ReminderSettings {
  enabled: boolean;
  firstAfterDays: number;
  everyDays: number;
  expiryNotice: boolean;
}

export const DEFAULT_REMINDERS: ReminderSettings = { enabled: true, firstAfterDays: 2, everyDays: 3, expiryNotice: true };
/** Bounds of first_after_days and every_days (envelopes live 1 to 90 days). */
export const MIN_REMINDER_DAYS = 1;
export const MAX_REMINDER_DAYS = 30;

export const DAY_MS = 86_400_000;
/** The expiry notice goes this long before the envelope expires. */
export const EXPIRY_NOTICE_BEFORE_MS = DAY_MS;

export type ReminderKind = 'reminder' | 'expiry_notice';

export interface ReminderSlot {
  kind: ReminderKind;
  /** 1, 2, … for reminders; the expiry notice counts on from the last reminder before it. */
  number: number;
  /** When the slot fell due: the claim (and the messages' idempotency keys) name it. */
  dueAt: Date;
}

export interface RemindableEnvelope {
  createdAt: Date;
  expiresAt: Date;
  /** The due time of the last slot claimed, or null. */
  reminderDueAt: Date | null;
}

/** The expiry notice's instant, when the envelope lives long enough for one (a day after it was sent, at the earliest). */
function noticeAt(envelope: RemindableEnvelope, settings: ReminderSettings): Date | null {
  if (!settings.expiryNotice) return null;
  const at = envelope.expiresAt.getTime() - EXPIRY_NOTICE_BEFORE_MS;
  return at >= envelope.createdAt.getTime() + DAY_MS ? new Date(at) : null;
}

/** Regular slots falling due before `limit` (ms). */
function reminderCount(envelope: RemindableEnvelope, settings: ReminderSettings, until: number): number {
  const first = envelope.createdAt.getTime() + settings.firstAfterDays * DAY_MS;
  if (until < first) return 0;
  return Math.floor((until - first) / (settings.everyDays * DAY_MS)) + 1;
}

const slotDue = (envelope: RemindableEnvelope, settings: ReminderSettings, n: number) =>
  new Date(envelope.createdAt.getTime() + (settings.firstAfterDays + (n - 1) * settings.everyDays) * DAY_MS);

/**
 * The slot due at `now` and not claimed yet, or null. Only the latest slot due is sent: after
 * downtime the signer gets one reminder, not the ones missed. Nothing once the envelope expired.
 */
export function dueReminder(envelope: RemindableEnvelope, settings: ReminderSettings, now: Date): ReminderSlot | null {
  if (!settings.enabled || now >= envelope.expiresAt) return null;
  const notice = noticeAt(envelope, settings);
  // Regular reminders stop where the expiry notice (or the expiry) begins.
  const limit = (notice ?? envelope.expiresAt).getTime() - 1;
  let slot: ReminderSlot | null = null;
  if (notice && now >= notice) {
    slot = { kind: 'expiry_notice', number: reminderCount(envelope, settings, limit) + 1, dueAt: notice };
  } else {
    const n = reminderCount(envelope, settings, Math.min(now.getTime(), limit));
    if (n > 0) slot = { kind: 'reminder', number: n, dueAt: slotDue(envelope, settings, n) };
  }
  if (!slot || (envelope.reminderDueAt && envelope.reminderDueAt >= slot.dueAt)) return null;
  return slot;
}

/** When the next slot falls due (one due now and not yet sent: its due time), or null when none will. */
export function nextReminderAt(envelope: RemindableEnvelope, settings: ReminderSettings, now: Date): Date | null {
  const pending = dueReminder(envelope, settings, now);
  if (pending) return pending.dueAt;
  if (!settings.enabled || now >= envelope.expiresAt) return null;
  const notice = noticeAt(envelope, settings);
  const limit = (notice ?? envelope.expiresAt).getTime() - 1;
  const next = slotDue(envelope, settings, reminderCount(envelope, settings, now.getTime()) + 1);
  if (next.getTime() <= limit) return next;
  return notice && notice > now ? notice : null;
}
