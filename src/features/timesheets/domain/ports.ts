/** What the timesheets domain needs from storage, and the read port other features use. */
import type { Placement } from './placement';
import type { Timesheet, TimesheetStatus } from './timesheet';

export interface TimesheetRepository {
  insertPlacement(placement: Placement): Promise<void>;
  placement(organizationId: string, id: string): Promise<Placement | undefined>;
  /** Inserts unless the placement already has a timesheet for the week; answers the stored one and whether it was new. */
  claimTimesheet(timesheet: Timesheet): Promise<{ timesheet: Timesheet; created: boolean }>;
  timesheet(organizationId: string, id: string): Promise<Timesheet | undefined>;
  list(organizationId: string, filter: { status?: TimesheetStatus; placementId?: string; limit: number; startingAfter?: string }): Promise<Timesheet[]>;
  /** Applies the change only while the timesheet is in `from` (a state change two requests race for happens once); false otherwise. */
  update(
    id: string,
    from: readonly TimesheetStatus[],
    change: Partial<Omit<Timesheet, 'id' | 'organizationId' | 'placementId' | 'createdAt'>>,
  ): Promise<boolean>;
  /** How many times the timesheet was submitted (the approval link names the submission). */
  submissions(id: string): Promise<number>;
  incrementSubmissions(id: string): Promise<void>;
}

/** An approved timesheet as payouts and payroll read it: who is paid, for which week, how much. */
export interface ApprovedTimesheet {
  timesheetId: string;
  placementId: string;
  workerId: string;
  workerName: string;
  workerEmail: string | null;
  clientCompanyId: string;
  periodStart: string;
  periodEnd: string;
  regularMinutes: number;
  overtimeMinutes: number;
  doubleTimeMinutes: number;
  /** The worker's pay for the week, integer cents of `currency` (overtime multipliers included). */
  payCents: number;
  billCents: number;
  /** The placement's rates, integer cents per hour. */
  payRateCents: number;
  billRateCents: number;
  currency: string;
  approvedAt: Date;
  invoiceId: string | null;
}

/** Read port for other features (payouts, payroll, invoicing): approved timesheets only. */
export interface ApprovedTimesheets {
  get(organizationId: string, timesheetId: string): Promise<ApprovedTimesheet | undefined>;
  /** Oldest approval first; `approvedSince` is inclusive. */
  list(
    organizationId: string,
    filter?: { approvedSince?: Date; approvedBefore?: Date; workerId?: string; clientCompanyId?: string; uninvoiced?: boolean },
  ): Promise<ApprovedTimesheet[]>;
}

export const TIMESHEET_REPOSITORY = Symbol('TimesheetRepository');
export const APPROVED_TIMESHEETS = Symbol('ApprovedTimesheets');
export const TIMESHEET_OPTIONS = Symbol('TimesheetOptions');
export interface TimesheetOptions {
  baseUrl: string;
}

/**
 * Told after a timesheet was approved (payouts pay it). Called after the approval committed;
 * a listener's failure is logged and never undoes or fails the approval, so listeners only
 * enqueue their work (a job with a deterministic id).
 */
export interface TimesheetApprovalListener {
  approved(organizationId: string, timesheetId: string): Promise<void>;
}

/** The listeners other features add at registration (timesheets knows none of them). */
export class TimesheetApprovalListeners {
  private readonly listeners: TimesheetApprovalListener[] = [];

  add(listener: TimesheetApprovalListener): void {
    this.listeners.push(listener);
  }

  all(): readonly TimesheetApprovalListener[] {
    return this.listeners;
  }
}

export const TIMESHEET_APPROVAL_LISTENERS = Symbol('TimesheetApprovalListeners');
