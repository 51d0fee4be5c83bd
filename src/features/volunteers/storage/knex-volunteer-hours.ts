/** Volunteer hours on knex: one row per entry, and one row of hi_volunteer_hour_changes per correction or void. */
import type { Database } from '../../../platform/database/database';
import type {
  VolunteerHoursChange,
  VolunteerHoursEntry,
  VolunteerHoursFilter,
  VolunteerHoursRepository,
  VolunteerHoursValues,
} from '../domain/volunteer-hours';

interface Row {
  id: string;
  organization_id: string;
  volunteer_id: string;
  volunteer_name: string;
  volunteer_email: string;
  date: string;
  minutes: number;
  school: string | null;
  activity: string | null;
  status: 'logged' | 'voided';
  revision: number;
  created_at: Date;
  updated_at: Date | null;
}

interface ChangeRow {
  id: string;
  organization_id: string;
  entry_id: string;
  revision: number;
  kind: 'corrected' | 'voided';
  reason: string;
  before: VolunteerHoursValues | string;
  after: VolunteerHoursValues | string | null;
  changed_at: Date;
}

const TABLE = 'hi_volunteer_hours';
const CHANGES = 'hi_volunteer_hour_changes';

const json = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

const entryOf = (r: Row): VolunteerHoursEntry => ({
  id: r.id,
  organizationId: r.organization_id,
  volunteerId: r.volunteer_id,
  volunteerName: r.volunteer_name,
  volunteerEmail: r.volunteer_email,
  date: r.date,
  minutes: Number(r.minutes),
  school: r.school,
  activity: r.activity,
  status: r.status,
  revision: Number(r.revision),
  createdAt: new Date(r.created_at),
  updatedAt: r.updated_at ? new Date(r.updated_at) : null,
});

export class KnexVolunteerHours implements VolunteerHoursRepository {
  constructor(private readonly db: Database) {}

  async insert(e: VolunteerHoursEntry): Promise<void> {
    await this.db(TABLE).insert({
      id: e.id,
      organization_id: e.organizationId,
      volunteer_id: e.volunteerId,
      volunteer_name: e.volunteerName,
      volunteer_email: e.volunteerEmail,
      date: e.date,
      minutes: e.minutes,
      school: e.school,
      activity: e.activity,
      status: e.status,
      revision: e.revision,
      created_at: e.createdAt,
      updated_at: e.updatedAt,
    });
  }

  async get(organizationId: string, id: string): Promise<VolunteerHoursEntry | undefined> {
    const row = await this.db<Row>(TABLE).where({ organization_id: organizationId, id }).first();
    return row ? entryOf(row) : undefined;
  }

  async list(organizationId: string, filter: VolunteerHoursFilter): Promise<VolunteerHoursEntry[]> {
    const q = this.db<Row>(TABLE).where({ organization_id: organizationId });
    if (!filter.includeVoided) q.where({ status: 'logged' });
    if (filter.volunteerId) q.where({ volunteer_id: filter.volunteerId });
    if (filter.from) q.where('date', '>=', filter.from);
    if (filter.to) q.where('date', '<=', filter.to);
    const rows = await q.orderBy([{ column: 'date' }, { column: 'volunteer_id' }, { column: 'id' }]);
    return rows.map(entryOf);
  }

  async applyChange(e: VolunteerHoursEntry, c: VolunteerHoursChange): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const updated = await trx(TABLE)
        .where({ organization_id: e.organizationId, id: e.id, revision: c.revision - 1, status: 'logged' })
        .update({ date: e.date, minutes: e.minutes, school: e.school, activity: e.activity, status: e.status, revision: e.revision, updated_at: e.updatedAt });
      if (updated !== 1) return false;
      await trx(CHANGES).insert({
        id: c.id,
        organization_id: c.organizationId,
        entry_id: c.entryId,
        revision: c.revision,
        kind: c.kind,
        reason: c.reason,
        before: JSON.stringify(c.before),
        after: c.after ? JSON.stringify(c.after) : null,
        changed_at: c.changedAt,
      });
      return true;
    });
  }

  async changes(organizationId: string, entryId: string): Promise<VolunteerHoursChange[]> {
    const rows = await this.db<ChangeRow>(CHANGES).where({ organization_id: organizationId, entry_id: entryId }).orderBy('revision');
    return rows.map((r) => ({
      id: r.id,
      organizationId: r.organization_id,
      entryId: r.entry_id,
      revision: Number(r.revision),
      kind: r.kind,
      reason: r.reason,
      before: json(r.before),
      after: r.after === null ? null : json(r.after),
      changedAt: new Date(r.changed_at),
    }));
  }
}
