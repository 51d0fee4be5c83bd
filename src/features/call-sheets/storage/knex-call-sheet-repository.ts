/** hi_call_sheets through knex (CallSheetRepository). */
import type { Database } from '../../../platform/database/database';
import type { CallSheet, CallSheetRepository, CallSheetStatus } from '../domain/call-sheet';

interface Row {
  id: string;
  organization_id: string;
  production_day_id: string;
  person_id: string;
  name: string;
  email: string | null;
  phone: string | null;
  language: string;
  role: string | null;
  production: string;
  date: string;
  timezone: string;
  location: string;
  call_at: Date | string;
  confirm_by: Date | string | null;
  status: CallSheetStatus;
  reason: string | null;
  email_run_id: string | null;
  sms_run_id: string | null;
  confirmed_at: Date | string | null;
  reminded_at: Date | string | null;
  created_at: Date | string;
}

const date = (value: Date | string | null) => (value === null ? null : new Date(value));

const toDomain = (r: Row): CallSheet => ({
  id: r.id,
  organizationId: r.organization_id,
  productionDayId: r.production_day_id,
  personId: r.person_id,
  name: r.name,
  email: r.email,
  phone: r.phone,
  language: r.language,
  role: r.role,
  production: r.production,
  date: r.date,
  timezone: r.timezone,
  location: r.location,
  callAt: new Date(r.call_at),
  confirmBy: date(r.confirm_by),
  status: r.status,
  reason: r.reason,
  emailRunId: r.email_run_id,
  smsRunId: r.sms_run_id,
  confirmedAt: date(r.confirmed_at),
  remindedAt: date(r.reminded_at),
  createdAt: new Date(r.created_at),
});

const COLUMNS: Record<string, string> = { status: 'status', reason: 'reason', emailRunId: 'email_run_id', smsRunId: 'sms_run_id', remindedAt: 'reminded_at' };

export class KnexCallSheetRepository implements CallSheetRepository {
  constructor(private readonly db: Database) {}

  async claim(s: CallSheet): Promise<{ sheet: CallSheet; created: boolean }> {
    const inserted = await this.db('hi_call_sheets')
      .insert({
        id: s.id,
        organization_id: s.organizationId,
        production_day_id: s.productionDayId,
        person_id: s.personId,
        name: s.name,
        email: s.email,
        phone: s.phone,
        language: s.language,
        role: s.role,
        production: s.production,
        date: s.date,
        timezone: s.timezone,
        location: s.location,
        call_at: s.callAt,
        confirm_by: s.confirmBy,
        status: s.status,
        reason: s.reason,
        created_at: s.createdAt,
      })
      .onConflict(['organization_id', 'production_day_id', 'person_id'])
      .ignore()
      .returning('id');
    const row = await this.db<Row>('hi_call_sheets')
      .where({ organization_id: s.organizationId, production_day_id: s.productionDayId, person_id: s.personId })
      .first();
    return { sheet: toDomain(row!), created: inserted.length > 0 };
  }

  async get(organizationId: string, id: string): Promise<CallSheet | undefined> {
    const row = await this.db<Row>('hi_call_sheets').where({ organization_id: organizationId, id }).first();
    return row ? toDomain(row) : undefined;
  }

  async update(id: string, change: Partial<Pick<CallSheet, 'status' | 'reason' | 'emailRunId' | 'smsRunId' | 'remindedAt'>>): Promise<void> {
    const values = Object.fromEntries(Object.entries(change).map(([key, value]) => [COLUMNS[key]!, value]));
    if (Object.keys(values).length > 0) await this.db('hi_call_sheets').where({ id }).update(values);
  }

  async confirm(id: string, at: Date): Promise<boolean> {
    return (await this.db('hi_call_sheets').where({ id, status: 'sent' }).update({ status: 'confirmed', confirmed_at: at })) > 0;
  }

  async unconfirmed(organizationId: string, productionDayId: string): Promise<CallSheet[]> {
    const rows = await this.db<Row>('hi_call_sheets')
      .where({ organization_id: organizationId, production_day_id: productionDayId, status: 'sent' })
      .orderBy('person_id');
    return rows.map(toDomain);
  }
}
