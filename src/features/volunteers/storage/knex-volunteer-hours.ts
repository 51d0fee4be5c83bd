/** Volunteer hours on knex: one row per entry. */
import type { Database } from '../../../platform/database/database';
import type { VolunteerHoursEntry, VolunteerHoursRepository } from '../domain/volunteer-hours';

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
  created_at: Date;
}

const TABLE = 'hi_volunteer_hours';

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
      created_at: e.createdAt,
    });
  }

  async list(organizationId: string, filter: { volunteerId?: string; from?: string; to?: string }): Promise<VolunteerHoursEntry[]> {
    const q = this.db<Row>(TABLE).where({ organization_id: organizationId });
    if (filter.volunteerId) q.where({ volunteer_id: filter.volunteerId });
    if (filter.from) q.where('date', '>=', filter.from);
    if (filter.to) q.where('date', '<=', filter.to);
    const rows = await q.orderBy([{ column: 'date' }, { column: 'volunteer_id' }, { column: 'id' }]);
    return rows.map((r) => ({
      id: r.id,
      organizationId: r.organization_id,
      volunteerId: r.volunteer_id,
      volunteerName: r.volunteer_name,
      volunteerEmail: r.volunteer_email,
      date: r.date,
      minutes: Number(r.minutes),
      school: r.school,
      activity: r.activity,
      createdAt: new Date(r.created_at),
    }));
  }
}
