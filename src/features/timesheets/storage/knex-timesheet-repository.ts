/** hi_placements and hi_timesheets through knex (TimesheetRepository). */
import type { Database } from '../../../platform/database/database';
import type { OvertimeRule } from '../domain/overtime';
import type { Placement } from '../domain/placement';
import type { TimesheetRepository } from '../domain/ports';
import type { TimeEntry, Timesheet, TimesheetStatus } from '../domain/timesheet';

type Stamp = Date | string | null;
const date = (value: Stamp) => (value === null ? null : new Date(value));

interface PlacementRow {
  id: string;
  organization_id: string;
  worker_id: string;
  worker_name: string;
  worker_email: string | null;
  client_company_id: string;
  client_name: string;
  client_contact_name: string;
  client_contact_email: string;
  bill_rate_cents: string | number;
  pay_rate_cents: string | number;
  currency: string;
  overtime_rule: OvertimeRule;
  timezone: string;
  created_at: Date | string;
}

export interface TimesheetRow {
  id: string;
  organization_id: string;
  placement_id: string;
  period_start: string;
  period_end: string;
  status: TimesheetStatus;
  entries: TimeEntry[] | string;
  regular_minutes: number;
  overtime_minutes: number;
  double_time_minutes: number;
  pay_cents: string | number;
  bill_cents: string | number;
  currency: string;
  submissions: number;
  submitted_at: Stamp;
  decided_at: Stamp;
  decision_note: string | null;
  review_run_id: string | null;
  invoice_id: string | null;
  created_at: Date | string;
}

const placementOf = (r: PlacementRow): Placement => ({
  id: r.id,
  organizationId: r.organization_id,
  workerId: r.worker_id,
  workerName: r.worker_name,
  workerEmail: r.worker_email,
  clientCompanyId: r.client_company_id,
  clientName: r.client_name,
  clientContactName: r.client_contact_name,
  clientContactEmail: r.client_contact_email,
  billRateCents: Number(r.bill_rate_cents),
  payRateCents: Number(r.pay_rate_cents),
  currency: r.currency,
  overtimeRule: r.overtime_rule,
  timezone: r.timezone,
  createdAt: new Date(r.created_at),
});

export const timesheetOf = (r: TimesheetRow): Timesheet => ({
  id: r.id,
  organizationId: r.organization_id,
  placementId: r.placement_id,
  periodStart: r.period_start,
  periodEnd: r.period_end,
  status: r.status,
  entries: typeof r.entries === 'string' ? (JSON.parse(r.entries) as TimeEntry[]) : r.entries,
  split: { regular: r.regular_minutes, overtime: r.overtime_minutes, doubleTime: r.double_time_minutes },
  payCents: Number(r.pay_cents),
  billCents: Number(r.bill_cents),
  currency: r.currency,
  submittedAt: date(r.submitted_at),
  decidedAt: date(r.decided_at),
  decisionNote: r.decision_note,
  reviewRunId: r.review_run_id,
  invoiceId: r.invoice_id,
  createdAt: new Date(r.created_at),
});

function columnsOf(change: Partial<Timesheet>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (change.status !== undefined) out.status = change.status;
  if (change.entries !== undefined) out.entries = JSON.stringify(change.entries);
  if (change.split !== undefined) {
    out.regular_minutes = change.split.regular;
    out.overtime_minutes = change.split.overtime;
    out.double_time_minutes = change.split.doubleTime;
  }
  if (change.payCents !== undefined) out.pay_cents = change.payCents;
  if (change.billCents !== undefined) out.bill_cents = change.billCents;
  if (change.submittedAt !== undefined) out.submitted_at = change.submittedAt;
  if (change.decidedAt !== undefined) out.decided_at = change.decidedAt;
  if (change.decisionNote !== undefined) out.decision_note = change.decisionNote;
  if (change.reviewRunId !== undefined) out.review_run_id = change.reviewRunId;
  if (change.invoiceId !== undefined) out.invoice_id = change.invoiceId;
  return out;
}

export class KnexTimesheetRepository implements TimesheetRepository {
  constructor(private readonly db: Database) {}

  async insertPlacement(p: Placement): Promise<void> {
    await this.db('hi_placements').insert({
      id: p.id,
      organization_id: p.organizationId,
      worker_id: p.workerId,
      worker_name: p.workerName,
      worker_email: p.workerEmail,
      client_company_id: p.clientCompanyId,
      client_name: p.clientName,
      client_contact_name: p.clientContactName,
      client_contact_email: p.clientContactEmail,
      bill_rate_cents: p.billRateCents,
      pay_rate_cents: p.payRateCents,
      currency: p.currency,
      overtime_rule: p.overtimeRule,
      timezone: p.timezone,
      created_at: p.createdAt,
    });
  }

  async placement(organizationId: string, id: string): Promise<Placement | undefined> {
    const row = await this.db<PlacementRow>('hi_placements').where({ organization_id: organizationId, id }).first();
    return row ? placementOf(row) : undefined;
  }

  async claimTimesheet(t: Timesheet): Promise<{ timesheet: Timesheet; created: boolean }> {
    const inserted = await this.db('hi_timesheets')
      .insert({
        id: t.id,
        organization_id: t.organizationId,
        placement_id: t.placementId,
        period_start: t.periodStart,
        period_end: t.periodEnd,
        currency: t.currency,
        created_at: t.createdAt,
        ...columnsOf(t),
      })
      .onConflict(['placement_id', 'period_start'])
      .ignore()
      .returning('id');
    const row = await this.db<TimesheetRow>('hi_timesheets').where({ placement_id: t.placementId, period_start: t.periodStart }).first();
    return { timesheet: timesheetOf(row!), created: inserted.length > 0 };
  }

  async timesheet(organizationId: string, id: string): Promise<Timesheet | undefined> {
    const row = await this.db<TimesheetRow>('hi_timesheets').where({ organization_id: organizationId, id }).first();
    return row ? timesheetOf(row) : undefined;
  }

  async list(organizationId: string, filter: { status?: TimesheetStatus; placementId?: string; limit: number; startingAfter?: string }): Promise<Timesheet[]> {
    const q = this.db<TimesheetRow>('hi_timesheets').where({ organization_id: organizationId });
    if (filter.status) q.where({ status: filter.status });
    if (filter.placementId) q.where({ placement_id: filter.placementId });
    if (filter.startingAfter) q.where('id', '>', filter.startingAfter);
    return (await q.orderBy('id').limit(filter.limit)).map(timesheetOf);
  }

  async update(id: string, from: readonly TimesheetStatus[], change: Partial<Timesheet>): Promise<boolean> {
    return (await this.db('hi_timesheets').where({ id }).whereIn('status', from).update(columnsOf(change))) > 0;
  }

  async submissions(id: string): Promise<number> {
    const row = await this.db('hi_timesheets').where({ id }).first('submissions');
    return Number(row?.submissions ?? 0);
  }

  async incrementSubmissions(id: string): Promise<void> {
    await this.db('hi_timesheets').where({ id }).increment('submissions', 1);
  }
}
