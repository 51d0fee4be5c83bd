/**
 * The employee roster and the payroll journal on knex: a report is applied in one transaction
 * holding the person's row lock (a first report inserts it; two concurrent first reports meet
 * the primary key and the loser applies again, now against the winner's row).
 */
import type { Knex } from 'knex';
import { newId } from '../../../kernel/ids';
import type { Database } from '../../../platform/database/database';
import {
  applyReport,
  type AppliedReport,
  type EmployeeRoster,
  type PayRate,
  type PayrollRecord,
  type RecordKind,
  type RosterEntry,
  type RosterKind,
  type RosterPerson,
  type RosterReport,
} from '../domain/employee-roster';

interface RosterRow {
  organization_id: string;
  roster: RosterKind;
  candidate_id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  job_title: string | null;
  department: string | null;
  start_date: string | null;
  employment_type: string | null;
  pay_amount: string | number | null;
  pay_currency: string | null;
  pay_per: 'hour' | 'year' | null;
  status: 'active' | 'terminated';
  revision: number;
  updated_at: Date;
}

interface ChangeRow {
  id: string;
  organization_id: string;
  candidate_id: string;
  revision: number;
  kind: RecordKind;
  changed_fields: string;
  effective_date: string;
  reason: string | null;
  name: string | null;
  email: string | null;
  job_title: string | null;
  department: string | null;
  start_date: string | null;
  employment_type: string | null;
  old_pay_amount: string | number | null;
  old_pay_currency: string | null;
  old_pay_per: 'hour' | 'year' | null;
  new_pay_amount: string | number | null;
  new_pay_currency: string | null;
  new_pay_per: 'hour' | 'year' | null;
  recorded_at: Date;
}

const ROSTER = 'hi_employee_roster';
const CHANGES = 'hi_payroll_changes';

const payOf = (amount: string | number | null, currency: string | null, per: 'hour' | 'year' | null): PayRate | null =>
  amount === null || currency === null || per === null ? null : { amount: Number(amount), currency, per };

const entryOf = (r: RosterRow): RosterEntry => ({
  candidateId: r.candidate_id,
  name: r.name,
  email: r.email,
  phone: r.phone,
  jobTitle: r.job_title,
  department: r.department,
  startDate: r.start_date,
  employmentType: r.employment_type,
  payRate: payOf(r.pay_amount, r.pay_currency, r.pay_per),
  status: r.status,
  revision: r.revision,
  updatedAt: new Date(r.updated_at),
});

const recordOf = (r: ChangeRow): PayrollRecord => ({
  id: r.id,
  organizationId: r.organization_id,
  candidateId: r.candidate_id,
  revision: r.revision,
  kind: r.kind,
  changedFields: r.changed_fields === '' ? [] : r.changed_fields.split(' '),
  effectiveDate: r.effective_date,
  reason: r.reason,
  name: r.name,
  email: r.email,
  jobTitle: r.job_title,
  department: r.department,
  startDate: r.start_date,
  employmentType: r.employment_type,
  oldPayRate: payOf(r.old_pay_amount, r.old_pay_currency, r.old_pay_per),
  newPayRate: payOf(r.new_pay_amount, r.new_pay_currency, r.new_pay_per),
  recordedAt: new Date(r.recorded_at),
});

const personColumns = (p: RosterPerson) => ({
  name: p.name,
  email: p.email,
  phone: p.phone,
  job_title: p.jobTitle,
  department: p.department,
  start_date: p.startDate,
  employment_type: p.employmentType,
  pay_amount: p.payRate?.amount ?? null,
  pay_currency: p.payRate?.currency ?? null,
  pay_per: p.payRate?.per ?? null,
});

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

export class KnexEmployeeRoster implements EmployeeRoster {
  constructor(private readonly db: Database) {}

  async apply(organizationId: string, roster: RosterKind, report: RosterReport, at: Date): Promise<AppliedReport> {
    try {
      return await this.db.transaction((trx) => this.applyIn(trx, organizationId, roster, report, at));
    } catch (error) {
      // A concurrent first report of the same person inserted the row: apply against it.
      if (!isUniqueViolation(error)) throw error;
      return this.db.transaction((trx) => this.applyIn(trx, organizationId, roster, report, at));
    }
  }

  private async applyIn(trx: Knex.Transaction, organizationId: string, roster: RosterKind, report: RosterReport, at: Date): Promise<AppliedReport> {
    const key = { organization_id: organizationId, roster, candidate_id: report.candidateId };
    const row = (await trx<RosterRow>(ROSTER).where(key).forUpdate().first()) as RosterRow | undefined;
    const current = row ? entryOf(row) : null;
    const applied = applyReport(roster, current, report);
    if (!applied) return { entry: current!, record: null, changed: false };
    const revision = (current?.revision ?? 0) + 1;
    const { status, ...person } = applied.next;
    const columns = { ...personColumns(person), status, revision, updated_at: at };
    if (row) await trx(ROSTER).where(key).update(columns);
    else await trx(ROSTER).insert({ ...key, ...columns });
    const entry: RosterEntry = { candidateId: report.candidateId, ...person, status, revision, updatedAt: at };
    if (roster !== 'payroll') return { entry, record: null, changed: true };
    const change: ChangeRow = {
      id: newId('pchg'),
      organization_id: organizationId,
      candidate_id: report.candidateId,
      revision,
      kind: applied.kind,
      changed_fields: applied.changedFields.join(' '),
      effective_date: report.effectiveDate ?? at.toISOString().slice(0, 10),
      reason: report.reason ?? null,
      name: person.name,
      email: person.email,
      job_title: person.jobTitle,
      department: person.department,
      start_date: person.startDate,
      employment_type: person.employmentType,
      old_pay_amount: current?.payRate?.amount ?? null,
      old_pay_currency: current?.payRate?.currency ?? null,
      old_pay_per: current?.payRate?.per ?? null,
      new_pay_amount: applied.kind === 'termination' ? null : (person.payRate?.amount ?? null),
      new_pay_currency: applied.kind === 'termination' ? null : (person.payRate?.currency ?? null),
      new_pay_per: applied.kind === 'termination' ? null : (person.payRate?.per ?? null),
      recorded_at: at,
    };
    await trx(CHANGES).insert(change);
    return { entry, record: recordOf(change), changed: true };
  }

  async list(organizationId: string, roster: RosterKind, status: 'active' | 'all'): Promise<RosterEntry[]> {
    const query = this.db<RosterRow>(ROSTER).where({ organization_id: organizationId, roster }).orderBy('candidate_id');
    if (status === 'active') query.where({ status: 'active' });
    return ((await query) as RosterRow[]).map(entryOf);
  }

  async records(organizationId: string, kinds: readonly RecordKind[], since: Date, before: Date): Promise<PayrollRecord[]> {
    const rows = (await this.db<ChangeRow>(CHANGES)
      .where({ organization_id: organizationId })
      .whereIn('kind', [...kinds])
      .where('recorded_at', '>=', since)
      .where('recorded_at', '<', before)
      .orderBy([{ column: 'recorded_at' }, { column: 'candidate_id' }, { column: 'revision' }])) as ChangeRow[];
    return rows.map(recordOf);
  }

  async organizationsWithRecords(kinds: readonly RecordKind[], since: Date, before: Date): Promise<string[]> {
    const rows = (await this.db(CHANGES)
      .distinct('organization_id')
      .whereIn('kind', [...kinds])
      .where('recorded_at', '>=', since)
      .where('recorded_at', '<', before)
      .orderBy('organization_id')) as { organization_id: string }[];
    return rows.map((r) => r.organization_id);
  }
}
