/**
 * What the host reported about each hired person, kept per organization and roster:
 * `payroll` (payroll.payroll_sync) and `pos` (hris.pos_sync). A report (a hire, a change, a
 * termination) is compared with the person's current entry: one that changes nothing (a hook
 * fired again) writes nothing, so the same change is recorded once however often it is
 * reported; one that changes something becomes the new entry (revision + 1) and, on the
 * payroll roster, a journal record saying what changed, old → new pay rate, when it takes
 * effect and why. The journal is what the daily change.v1 batch and the new-hire download are
 * written from. A field an update leaves out is unchanged (a host that does not send the pay
 * rate on updates never clears it); the payroll roster ignores the phone number (payroll does
 * not read it), so a new phone number alone is no payroll change.
 */
export type RosterKind = 'payroll' | 'pos';
export type EmploymentType = 'full_time' | 'part_time' | 'temporary' | 'seasonal';

export interface PayRate {
  /** Integer minor units (cents). */
  amount: number;
  currency: string;
  per: 'hour' | 'year';
}

export interface RosterPerson {
  name: string | null;
  email: string | null;
  phone: string | null;
  jobTitle: string | null;
  department: string | null;
  startDate: string | null;
  employmentType: string | null;
  payRate: PayRate | null;
}

export interface RosterEntry extends RosterPerson {
  candidateId: string;
  status: 'active' | 'terminated';
  revision: number;
  updatedAt: Date;
}

export type RecordKind = 'hire' | 'update' | 'rehire' | 'termination';

/** One journal record: the person as payroll reads them after the change, and the pay rate before and after. */
export interface PayrollRecord extends Omit<RosterPerson, 'phone' | 'payRate'> {
  id: string;
  organizationId: string;
  candidateId: string;
  revision: number;
  kind: RecordKind;
  /** Which of name, email, job_title, department, start_date, employment_type, pay_rate, status changed. */
  changedFields: string[];
  effectiveDate: string;
  reason: string | null;
  oldPayRate: PayRate | null;
  newPayRate: PayRate | null;
  recordedAt: Date;
}

/** A report from the host. An update's undefined fields are unchanged; null clears nothing either (the hooks send no nulls). */
export type RosterReport =
  | { kind: 'hire'; candidateId: string; person: RosterPerson; effectiveDate?: string | undefined; reason?: string | undefined }
  | { kind: 'update'; candidateId: string; person: Partial<RosterPerson>; effectiveDate?: string | undefined; reason?: string | undefined }
  | { kind: 'termination'; candidateId: string; effectiveDate?: string | undefined; reason?: string | undefined };

export interface AppliedReport {
  entry: RosterEntry;
  /** The journal record written (payroll roster only); null when the report changed nothing, or on the pos roster. */
  record: PayrollRecord | null;
  /** false: the report matched the current entry (a retried hook), nothing was written. */
  changed: boolean;
}

export interface EmployeeRoster {
  /** Applies the report under a row lock (concurrent reports of one person are serialized). */
  apply(organizationId: string, roster: RosterKind, report: RosterReport, at: Date): Promise<AppliedReport>;
  /** The roster's entries, by candidate id; `active` leaves the terminated out. */
  list(organizationId: string, roster: RosterKind, status: 'active' | 'all'): Promise<RosterEntry[]>;
  /** Journal records of these kinds recorded in [since, before), oldest first. */
  records(organizationId: string, kinds: readonly RecordKind[], since: Date, before: Date): Promise<PayrollRecord[]>;
  organizationsWithRecords(kinds: readonly RecordKind[], since: Date, before: Date): Promise<string[]>;
}

export const EMPLOYEE_ROSTER = Symbol('EmployeeRoster');

const EMPTY: RosterPerson = {
  name: null,
  email: null,
  phone: null,
  jobTitle: null,
  department: null,
  startDate: null,
  employmentType: null,
  payRate: null,
};

const FIELDS: readonly [keyof RosterPerson, string][] = [
  ['name', 'name'],
  ['email', 'email'],
  ['phone', 'phone'],
  ['jobTitle', 'job_title'],
  ['department', 'department'],
  ['startDate', 'start_date'],
  ['employmentType', 'employment_type'],
  ['payRate', 'pay_rate'],
];

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The next entry and what changed (pure: the storage calls it under its lock). */
export function applyReport(
  roster: RosterKind,
  current: RosterEntry | null,
  report: RosterReport,
): { next: RosterPerson & { status: 'active' | 'terminated' }; kind: RecordKind; changedFields: string[] } | null {
  const before: RosterPerson = current ? { ...current } : EMPTY;
  if (report.kind === 'termination') {
    if (current?.status === 'terminated') return null;
    return { next: { ...before, status: 'terminated' }, kind: 'termination', changedFields: ['status'] };
  }
  const reported: Partial<RosterPerson> = report.person;
  const next: RosterPerson = { ...before };
  for (const [key] of FIELDS) {
    const value = reported[key];
    if (value !== undefined) (next as unknown as Record<string, unknown>)[key] = value;
  }
  // Payroll does not read the phone number: a new one alone is no payroll change.
  if (roster === 'payroll') next.phone = null;
  const changedFields = FIELDS.filter(([key]) => !same(before[key], next[key])).map(([, column]) => column);
  if (!current || current.status === 'terminated') {
    const kind: RecordKind = report.kind === 'hire' ? 'hire' : current ? 'rehire' : 'update';
    return { next: { ...next, status: 'active' }, kind, changedFields: current ? ['status', ...changedFields] : changedFields };
  }
  if (changedFields.length === 0) return null;
  return { next: { ...next, status: 'active' }, kind: 'update', changedFields };
}
