/**
 * What contractors were paid in a tax year: approved timesheets' pay (the timesheets feature's
 * read port, by approval time) and payouts made through the API that settled (`paid`), by the
 * worker's reference. Payouts made from a timesheet are that timesheet's pay: counted once, as
 * the timesheet. The year is the calendar year in UTC.
 */
import type { Database } from '../../../platform/database/database';
import type { ApprovedTimesheets } from '../../timesheets/domain/ports';
import type { ContractorPayment, ContractorPayments } from '../domain/contractor';

export class KnexContractorPayments implements ContractorPayments {
  constructor(
    private readonly db: Database,
    private readonly timesheets: () => ApprovedTimesheets | undefined,
  ) {}

  async inTaxYear(organizationId: string, taxYear: number): Promise<ContractorPayment[]> {
    const since = new Date(Date.UTC(taxYear, 0, 1));
    const before = new Date(Date.UTC(taxYear + 1, 0, 1));
    const approved = (await this.timesheets()?.list(organizationId, { approvedSince: since, approvedBefore: before })) ?? [];
    const payouts = (await this.db('hi_payouts as p')
      .join('hi_payout_workers as w', 'w.id', 'p.worker_id')
      .where({ 'p.organization_id': organizationId, 'p.status': 'paid', 'p.source': 'api' })
      .where('p.created_at', '>=', since)
      .where('p.created_at', '<', before)
      .select('w.reference', 'p.amount', 'p.currency')) as { reference: string; amount: string | number; currency: string }[];
    return [
      ...approved.map((t): ContractorPayment => ({ workerId: t.workerId, currency: t.currency, cents: t.payCents, source: 'timesheet' })),
      ...payouts.map((p): ContractorPayment => ({ workerId: p.reference, currency: p.currency, cents: Number(p.amount), source: 'payout' })),
    ];
  }
}
