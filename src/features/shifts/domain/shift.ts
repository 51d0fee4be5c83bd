/**
 * A shift the host publishes for one employee (scheduling.shift_scheduling): where, what
 * role, from when to when (instants; the person's time zone says how they read them). The
 * iTIP UID is derived from the id and never changes; SEQUENCE grows with every change, so
 * calendar clients replace the version they hold. The person answers through a signed link
 * (confirmed / declined); a change of time or place asks again.
 */
export const SHIFT_SCHEDULING_ACTION = 'scheduling.shift_scheduling';
/** Deliveries (invite, SMS) and reminders: one queue, two job names. */
export const SHIFT_NOTIFICATIONS_QUEUE = 'shift-notifications';
/** The default lead of the reminder before a shift starts. */
export const DEFAULT_REMIND_MINUTES_BEFORE = 120;

export type ShiftStatus = 'scheduled' | 'cancelled';
export type ShiftResponse = 'pending' | 'confirmed' | 'declined';
export type DeliveryStatus = 'pending' | 'sent' | 'failed';

export interface Employee {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  timezone: string;
  /** BCP 47 tag, as given (messages fall back to English outside the six message languages). */
  language: string;
}

export interface Shift {
  id: string;
  organizationId: string;
  /** The host's id of a shift published through its hook bus (shift.published); null through the API. */
  hostShiftId: string | null;
  employee: Employee;
  location: string;
  role: string | null;
  notes: string | null;
  startsAt: Date;
  endsAt: Date;
  organizer: { name: string; email: string };
  status: ShiftStatus;
  sequence: number;
  response: ShiftResponse;
  respondedAt: Date | null;
  /** null: no reminder. */
  remindMinutesBefore: number | null;
  remindAt: Date | null;
  remindedAt: Date | null;
  deliveryStatus: DeliveryStatus;
  deliveryReason: string | null;
  emailRunId: string | null;
  smsRunId: string | null;
  /** The address the employee's email was changed from: it is sent a CANCEL by the next delivery, then cleared. */
  retractTo: { name: string; email: string } | null;
  createdAt: Date;
  updatedAt: Date;
}

export const shiftUid = (shift: Pick<Shift, 'id'>) => `${shift.id}@shifts.hiring-integrations`;

/** When the reminder is due: the lead before the start (none when there is no lead). */
export function reminderInstant(startsAt: Date, remindMinutesBefore: number | null): Date | null {
  return remindMinutesBefore === null ? null : new Date(startsAt.getTime() - remindMinutesBefore * 60_000);
}

export interface ShiftListFilter {
  employeeId?: string;
  status?: ShiftStatus;
  limit: number;
  startingAfter?: string;
}

export interface ShiftRepository {
  /** Inserts the shift; false when the organization already has a shift with its hostShiftId (two hooks racing). */
  insert(shift: Shift): Promise<boolean>;
  get(organizationId: string, id: string): Promise<Shift | undefined>;
  byHostId(organizationId: string, hostShiftId: string): Promise<Shift | undefined>;
  /** Ordered by start, then id; `startingAfter` is a shift id of the organization (unknown: shift_not_found). */
  list(organizationId: string, filter: ShiftListFilter): Promise<Shift[]>;
  /** Writes the whole row when its sequence is still `expectedSequence`; false when another change came first. */
  replace(shift: Shift, expectedSequence: number): Promise<boolean>;
  recordDelivery(id: string, sequence: number, change: Pick<Shift, 'deliveryStatus' | 'deliveryReason' | 'emailRunId' | 'smsRunId'>): Promise<void>;
  /** Forgets the old address once its CANCEL went out (still at `sequence`). */
  clearRetraction(id: string, sequence: number): Promise<void>;
  /** Sets the answer while the sequence is `sequence` and the shift scheduled; false otherwise. */
  respond(id: string, sequence: number, response: ShiftResponse, at: Date): Promise<boolean>;
  /** Claims the reminder once (reminded_at was null, still scheduled, due by `at`); false when it was not due or taken. */
  claimReminder(id: string, at: Date): Promise<boolean>;
  dueReminders(at: Date, limit: number): Promise<Shift[]>;
  /** The employee's scheduled shifts that end after `after`, by start. */
  upcoming(organizationId: string, employeeId: string, after: Date, limit: number): Promise<Shift[]>;
  hasEmployee(organizationId: string, employeeId: string): Promise<boolean>;
  feedVersion(organizationId: string, employeeId: string): Promise<number>;
  rotateFeed(organizationId: string, employeeId: string, at: Date): Promise<number>;
}

export const SHIFT_REPOSITORY = Symbol('ShiftRepository');
export const SHIFT_LINK_KEY = Symbol('ShiftLinkKey');
export const SHIFT_OPTIONS = Symbol('ShiftOptions');
/** Whether an SMS step of the organization would run now (its connection, the host's, the deployment's or the test sandbox). */
export const SHIFT_SMS_AVAILABILITY = Symbol('ShiftSmsAvailability');
export type SmsAvailability = (organizationId: string) => Promise<boolean>;

export interface ShiftOptions {
  baseUrl: string;
  /** Outside production the operator may run the reminder sweep at a test clock's time. */
  testClocks: boolean;
}

export interface ShiftNotificationJob {
  organization_id: string;
  shift_id: string;
  sequence: number;
}
