/** Time off in PostgreSQL (hi_time_off): one row per host time-off id, cancelled rows kept as cancelled. */
import type { Database } from '../../../platform/database/database';
import type { TimeRange } from '../../scheduling/domain/calendar-port';
import type { TimeOff, TimeOffStore } from '../domain/time-off';

interface TimeOffRow {
  organization_id: string;
  time_off_id: string;
  email: string;
  name: string | null;
  starts_at: Date | string;
  ends_at: Date | string;
  all_day: boolean;
  timezone: string;
  reason: string | null;
  status: TimeOff['status'];
  sequence: number;
  digest: string;
}

const toTimeOff = (r: TimeOffRow): TimeOff => ({
  organizationId: r.organization_id,
  timeOffId: r.time_off_id,
  email: r.email,
  ...(r.name ? { name: r.name } : {}),
  start: new Date(r.starts_at),
  end: new Date(r.ends_at),
  allDay: r.all_day,
  timezone: r.timezone,
  ...(r.reason ? { reason: r.reason } : {}),
  status: r.status,
  sequence: r.sequence,
  digest: r.digest,
});

export class KnexTimeOff implements TimeOffStore {
  constructor(private readonly db: Database) {}

  async find(organizationId: string, timeOffId: string): Promise<TimeOff | undefined> {
    const row = await this.db<TimeOffRow>('hi_time_off').where({ organization_id: organizationId, time_off_id: timeOffId }).first();
    return row ? toTimeOff(row) : undefined;
  }

  async save(t: TimeOff, now: Date): Promise<void> {
    const row = {
      organization_id: t.organizationId,
      time_off_id: t.timeOffId,
      email: t.email,
      name: t.name ?? null,
      starts_at: t.start,
      ends_at: t.end,
      all_day: t.allDay,
      timezone: t.timezone,
      reason: t.reason ?? null,
      status: t.status,
      sequence: t.sequence,
      digest: t.digest,
      updated_at: now,
    };
    await this.db('hi_time_off')
      .insert({ ...row, created_at: now })
      .onConflict(['organization_id', 'time_off_id'])
      .merge(row);
  }

  async overlapping(organizationId: string, email: string, range: TimeRange): Promise<TimeRange[]> {
    const rows = await this.db<TimeOffRow>('hi_time_off')
      .where({ organization_id: organizationId, email: email.toLowerCase(), status: 'active' })
      .where('starts_at', '<', range.end)
      .where('ends_at', '>', range.start)
      .select('starts_at', 'ends_at');
    return rows.map((r) => ({ start: new Date(r.starts_at), end: new Date(r.ends_at) }));
  }
}
