/** Approved timesheets with their placement's worker (the ApprovedTimesheets read port, for payouts, payroll and invoicing). */
import type { Database } from '../../../platform/database/database';
import type { ApprovedTimesheet, ApprovedTimesheets } from '../domain/ports';
import type { TimesheetRow } from './knex-timesheet-repository';

export class KnexApprovedTimesheets implements ApprovedTimesheets {
  constructor(private readonly db: Database) {}

  async get(organizationId: string, timesheetId: string): Promise<ApprovedTimesheet | undefined> {
    const row = await this.approvedQuery(organizationId).where('t.id', timesheetId).first();
    return row ? approvedOf(row) : undefined;
  }

  async list(organizationId: string, filter: Parameters<ApprovedTimesheets['list']>[1] = {}): Promise<ApprovedTimesheet[]> {
    const q = this.approvedQuery(organizationId);
    if (filter.approvedSince) q.where('t.decided_at', '>=', filter.approvedSince);
    if (filter.approvedBefore) q.where('t.decided_at', '<', filter.approvedBefore);
    if (filter.workerId) q.where('p.worker_id', filter.workerId);
    if (filter.clientCompanyId) q.where('p.client_company_id', filter.clientCompanyId);
    if (filter.uninvoiced) q.whereNull('t.invoice_id');
    return (await q.orderBy([{ column: 't.decided_at' }, { column: 't.id' }])).map(approvedOf);
  }

  private approvedQuery(organizationId: string) {
    return this.db('hi_timesheets as t')
      .join('hi_placements as p', 'p.id', 't.placement_id')
      .where({ 't.organization_id': organizationId, 't.status': 'approved' })
      .select('t.*', 'p.worker_id', 'p.worker_name', 'p.worker_email', 'p.client_company_id', 'p.pay_rate_cents', 'p.bill_rate_cents');
  }
}

const approvedOf = (
  r: TimesheetRow & {
    worker_id: string;
    worker_name: string;
    worker_email: string | null;
    client_company_id: string;
    pay_rate_cents: string | number;
    bill_rate_cents: string | number;
  },
): ApprovedTimesheet => ({
  timesheetId: r.id,
  placementId: r.placement_id,
  workerId: r.worker_id,
  workerName: r.worker_name,
  workerEmail: r.worker_email,
  clientCompanyId: r.client_company_id,
  periodStart: r.period_start,
  periodEnd: r.period_end,
  regularMinutes: r.regular_minutes,
  overtimeMinutes: r.overtime_minutes,
  doubleTimeMinutes: r.double_time_minutes,
  payCents: Number(r.pay_cents),
  billCents: Number(r.bill_cents),
  payRateCents: Number(r.pay_rate_cents),
  billRateCents: Number(r.bill_rate_cents),
  currency: r.currency,
  approvedAt: new Date(r.decided_at!),
  invoiceId: r.invoice_id,
});
