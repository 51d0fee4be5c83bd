/**
 * A weekly timesheet of one placement: entries (start and end instants, unpaid break
 * minutes), `draft` → `submitted` → `approved` or `rejected` (by the client's contact through
 * a signed link); a rejected timesheet may be corrected and submitted again. Hours and amounts
 * are computed from the entries when it is submitted and kept as approved.
 */
import { conflict } from '../../../kernel/errors';
import type { HoursSplit } from './overtime';

export const TIME_TRACKING_ACTION = 'payroll.time_tracking';

export type TimesheetStatus = 'draft' | 'submitted' | 'approved' | 'rejected';

export interface TimeEntry {
  start: string;
  end: string;
  breakMinutes: number;
}

export interface Timesheet {
  id: string;
  organizationId: string;
  placementId: string;
  /** The first day of the workweek (YYYY-MM-DD); the week is 7 days from it. */
  periodStart: string;
  periodEnd: string;
  status: TimesheetStatus;
  entries: TimeEntry[];
  split: HoursSplit;
  /** What the worker is paid and the client billed, in cents of the placement's currency. */
  payCents: number;
  billCents: number;
  currency: string;
  submittedAt: Date | null;
  decidedAt: Date | null;
  decisionNote: string | null;
  /** The action run that emailed the approval link. */
  reviewRunId: string | null;
  /** The client invoice the hours were billed on (payroll.invoicing). */
  invoiceId: string | null;
  createdAt: Date;
}

const ALLOWED: Record<TimesheetStatus, readonly TimesheetStatus[]> = {
  draft: ['submitted'],
  submitted: ['approved', 'rejected'],
  rejected: ['submitted'],
  approved: [],
};

export function requireTimesheetTransition(timesheet: Timesheet, to: TimesheetStatus): void {
  if (!ALLOWED[timesheet.status].includes(to)) {
    throw conflict('invalid_timesheet_state', `Timesheet ${timesheet.id} is ${timesheet.status} and cannot become ${to}`, { status: timesheet.status });
  }
}

/** Entries can be changed while the client has not approved them. */
export const isEditable = (timesheet: Timesheet): boolean => timesheet.status === 'draft' || timesheet.status === 'rejected';
