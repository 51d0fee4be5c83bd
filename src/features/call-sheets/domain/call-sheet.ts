/**
 * Call sheets (notifications.call_sheet_distribution): a production day the host schedules
 * (`production_day.scheduled`) becomes one call sheet per person: a PDF by email, a signed
 * link by SMS when an SMS connection resolves, a signed confirmation link, and a reminder
 * at `confirm_by` to those who have not confirmed. One row per (organization, day, person):
 * the same hook again sends nothing twice.
 */
import { z } from 'zod';
import { hostId, person } from '../../hooks/domain/payloads';
import { isTimeZone } from '../../messages/domain/message-language';

export const CALL_SHEET_ACTION = 'notifications.call_sheet_distribution';
export const CALL_SHEET_REMINDERS_QUEUE = 'call-sheet-reminders';

const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'expected a time of day as HH:MM');

export const productionDay = z.object({
  production_day_id: hostId,
  production: z.string().trim().min(1).max(200),
  date: z.iso.date(),
  timezone: z.string().max(64).refine(isTimeZone, 'expected an IANA time zone such as America/Los_Angeles'),
  location: z.string().trim().min(1).max(500),
  /** Who has not confirmed by then gets a reminder (default: none). */
  confirm_by: z.iso.datetime({ offset: true }).optional(),
  people: z
    .array(
      person.extend({
        person_id: hostId,
        role: z.string().trim().min(1).max(200).optional(),
        call_time: clock,
      }),
    )
    .min(1)
    .max(200)
    .refine((people) => new Set(people.map((p) => p.person_id)).size === people.length, 'person_id must be unique within the day'),
});
export type ProductionDay = z.infer<typeof productionDay>;

export type CallSheetStatus = 'sent' | 'confirmed' | 'failed';

export interface CallSheet {
  id: string;
  organizationId: string;
  productionDayId: string;
  personId: string;
  name: string;
  email: string | null;
  phone: string | null;
  language: string;
  role: string | null;
  production: string;
  date: string;
  timezone: string;
  location: string;
  callAt: Date;
  confirmBy: Date | null;
  status: CallSheetStatus;
  reason: string | null;
  emailRunId: string | null;
  smsRunId: string | null;
  confirmedAt: Date | null;
  remindedAt: Date | null;
  createdAt: Date;
}

export interface CallSheetRepository {
  /** Inserts unless (organization, day, person) exists; answers the stored row and whether it was new. */
  claim(sheet: CallSheet): Promise<{ sheet: CallSheet; created: boolean }>;
  get(organizationId: string, id: string): Promise<CallSheet | undefined>;
  update(id: string, change: Partial<Pick<CallSheet, 'status' | 'reason' | 'emailRunId' | 'smsRunId' | 'remindedAt'>>): Promise<void>;
  /** Moves a `sent` sheet to `confirmed`; false when it was not `sent`. */
  confirm(id: string, at: Date): Promise<boolean>;
  unconfirmed(organizationId: string, productionDayId: string): Promise<CallSheet[]>;
}

/** Renders one person's call sheet as a PDF (documents/call-sheet-pdf.ts). */
export interface CallSheetDocuments {
  render(sheet: CallSheet): Promise<Buffer>;
}

export interface CallSheetReminderJob {
  organization_id: string;
  production_day_id: string;
}

export const CALL_SHEET_REPOSITORY = Symbol('CallSheetRepository');
export const CALL_SHEET_DOCUMENTS = Symbol('CallSheetDocuments');
export const CALL_SHEET_OPTIONS = Symbol('CallSheetOptions');
/** Whether an SMS step of the organization would run now (its connection, the host's, the deployment's or the test sandbox). */
export const SMS_AVAILABILITY = Symbol('SmsAvailability');
export type SmsAvailability = (organizationId: string) => Promise<boolean>;

export interface CallSheetOptions {
  baseUrl: string;
}

/** The instant of `HH:MM` on `date` in `timeZone` (wall clock → UTC, DST-aware). */
export function wallClockInstant(date: string, time: string, timeZone: string): Date {
  const guess = new Date(`${date}T${time}:00Z`);
  // The zone's offset at the guess, applied twice to settle around DST changes.
  let instant = guess;
  for (let i = 0; i < 2; i += 1) {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' })
        .formatToParts(instant)
        .map((p) => [p.type, p.value]),
    );
    const shown = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute));
    instant = new Date(guess.getTime() - (shown - instant.getTime()));
  }
  return instant;
}
