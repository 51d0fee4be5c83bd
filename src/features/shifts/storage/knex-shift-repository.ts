/** hi_shifts and hi_shift_feeds through knex (ShiftRepository). */
import { isUniqueViolation, type Database } from '../../../platform/database/database';
import type { DeliveryStatus, Shift, ShiftListFilter, ShiftRepository, ShiftResponse, ShiftStatus } from '../domain/shift';

interface Row {
  id: string;
  organization_id: string;
  host_shift_id: string | null;
  employee_id: string;
  employee_name: string;
  employee_email: string | null;
  employee_phone: string | null;
  timezone: string;
  language: string;
  location: string;
  role: string | null;
  notes: string | null;
  starts_at: Date | string;
  ends_at: Date | string;
  organizer_name: string;
  organizer_email: string;
  status: ShiftStatus;
  sequence: number;
  response: ShiftResponse;
  responded_at: Date | string | null;
  remind_minutes_before: number | null;
  remind_at: Date | string | null;
  reminded_at: Date | string | null;
  delivery_status: DeliveryStatus;
  delivery_reason: string | null;
  email_run_id: string | null;
  sms_run_id: string | null;
  retract_name: string | null;
  retract_email: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const date = (value: Date | string | null) => (value === null ? null : new Date(value));

const toDomain = (r: Row): Shift => ({
  id: r.id,
  organizationId: r.organization_id,
  hostShiftId: r.host_shift_id ?? null,
  employee: { id: r.employee_id, name: r.employee_name, email: r.employee_email, phone: r.employee_phone, timezone: r.timezone, language: r.language },
  location: r.location,
  role: r.role,
  notes: r.notes,
  startsAt: new Date(r.starts_at),
  endsAt: new Date(r.ends_at),
  organizer: { name: r.organizer_name, email: r.organizer_email },
  status: r.status,
  sequence: r.sequence,
  response: r.response,
  respondedAt: date(r.responded_at),
  remindMinutesBefore: r.remind_minutes_before,
  remindAt: date(r.remind_at),
  remindedAt: date(r.reminded_at),
  deliveryStatus: r.delivery_status,
  deliveryReason: r.delivery_reason,
  emailRunId: r.email_run_id,
  smsRunId: r.sms_run_id,
  retractTo: r.retract_email ? { name: r.retract_name ?? '', email: r.retract_email } : null,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

const toRow = (s: Shift): Row => ({
  id: s.id,
  organization_id: s.organizationId,
  host_shift_id: s.hostShiftId,
  employee_id: s.employee.id,
  employee_name: s.employee.name,
  employee_email: s.employee.email,
  employee_phone: s.employee.phone,
  timezone: s.employee.timezone,
  language: s.employee.language,
  location: s.location,
  role: s.role,
  notes: s.notes,
  starts_at: s.startsAt,
  ends_at: s.endsAt,
  organizer_name: s.organizer.name,
  organizer_email: s.organizer.email,
  status: s.status,
  sequence: s.sequence,
  response: s.response,
  responded_at: s.respondedAt,
  remind_minutes_before: s.remindMinutesBefore,
  remind_at: s.remindAt,
  reminded_at: s.remindedAt,
  delivery_status: s.deliveryStatus,
  delivery_reason: s.deliveryReason,
  email_run_id: s.emailRunId,
  sms_run_id: s.smsRunId,
  retract_name: s.retractTo?.name ?? null,
  retract_email: s.retractTo?.email ?? null,
  created_at: s.createdAt,
  updated_at: s.updatedAt,
});

export class KnexShiftRepository implements ShiftRepository {
  constructor(private readonly db: Database) {}

  async insert(shift: Shift): Promise<boolean> {
    try {
      await this.db('hi_shifts').insert(toRow(shift));
      return true;
    } catch (error) {
      if (isUniqueViolation(error, 'hi_shifts_host_shift_id')) return false;
      throw error;
    }
  }

  async byHostId(organizationId: string, hostShiftId: string): Promise<Shift | undefined> {
    const row = await this.db<Row>('hi_shifts').where({ organization_id: organizationId, host_shift_id: hostShiftId }).first();
    return row ? toDomain(row) : undefined;
  }

  async get(organizationId: string, id: string): Promise<Shift | undefined> {
    const row = await this.db<Row>('hi_shifts').where({ organization_id: organizationId, id }).first();
    return row ? toDomain(row) : undefined;
  }

  async list(organizationId: string, filter: ShiftListFilter): Promise<Shift[]> {
    const q = this.db<Row>('hi_shifts').where({ organization_id: organizationId });
    if (filter.employeeId) q.where({ employee_id: filter.employeeId });
    if (filter.status) q.where({ status: filter.status });
    if (filter.startingAfter) {
      const cursor = this.db('hi_shifts').select('starts_at', 'id').where({ organization_id: organizationId, id: filter.startingAfter });
      q.whereRaw('(starts_at, id) > ?', [cursor]);
    }
    const rows = await q.orderBy([{ column: 'starts_at' }, { column: 'id' }]).limit(filter.limit);
    return rows.map(toDomain);
  }

  async replace(shift: Shift, expectedSequence: number): Promise<boolean> {
    const { id, organization_id, created_at, ...rest } = toRow(shift);
    void created_at;
    return (await this.db('hi_shifts').where({ id, organization_id, sequence: expectedSequence }).update(rest)) > 0;
  }

  async recordDelivery(id: string, sequence: number, change: Pick<Shift, 'deliveryStatus' | 'deliveryReason' | 'emailRunId' | 'smsRunId'>): Promise<void> {
    await this.db('hi_shifts').where({ id, sequence }).update({
      delivery_status: change.deliveryStatus,
      delivery_reason: change.deliveryReason,
      email_run_id: change.emailRunId,
      sms_run_id: change.smsRunId,
    });
  }

  async clearRetraction(id: string, sequence: number): Promise<void> {
    await this.db('hi_shifts').where({ id, sequence }).update({ retract_name: null, retract_email: null });
  }

  async respond(id: string, sequence: number, response: ShiftResponse, at: Date): Promise<boolean> {
    const updated = await this.db('hi_shifts').where({ id, sequence, status: 'scheduled' }).whereNot({ response }).update({ response, responded_at: at });
    return updated > 0;
  }

  async claimReminder(id: string, at: Date): Promise<boolean> {
    return (
      (await this.db('hi_shifts').where({ id, status: 'scheduled' }).whereNull('reminded_at').where('remind_at', '<=', at).update({ reminded_at: at })) > 0
    );
  }

  async dueReminders(at: Date, limit: number): Promise<Shift[]> {
    const rows = await this.db<Row>('hi_shifts')
      .where({ status: 'scheduled' })
      .whereNull('reminded_at')
      .whereNotNull('remind_at')
      .where('remind_at', '<=', at)
      .where('starts_at', '>', at)
      .orderBy('remind_at')
      .limit(limit);
    return rows.map(toDomain);
  }

  async upcoming(organizationId: string, employeeId: string, after: Date, limit: number): Promise<Shift[]> {
    const rows = await this.db<Row>('hi_shifts')
      .where({ organization_id: organizationId, employee_id: employeeId, status: 'scheduled' })
      .where('ends_at', '>', after)
      .orderBy([{ column: 'starts_at' }, { column: 'id' }])
      .limit(limit);
    return rows.map(toDomain);
  }

  async hasEmployee(organizationId: string, employeeId: string): Promise<boolean> {
    return (await this.db('hi_shifts').where({ organization_id: organizationId, employee_id: employeeId }).first('id')) !== undefined;
  }

  async feedVersion(organizationId: string, employeeId: string): Promise<number> {
    const row = (await this.db('hi_shift_feeds').where({ organization_id: organizationId, employee_id: employeeId }).first('version')) as
      { version: number } | undefined;
    return row?.version ?? 1;
  }

  async rotateFeed(organizationId: string, employeeId: string, at: Date): Promise<number> {
    const [row] = await this.db('hi_shift_feeds')
      .insert({ organization_id: organizationId, employee_id: employeeId, version: 2, updated_at: at })
      .onConflict(['organization_id', 'employee_id'])
      .merge({ version: this.db.raw('hi_shift_feeds.version + 1'), updated_at: at })
      .returning('version');
    return Number((row as { version: number }).version);
  }
}
