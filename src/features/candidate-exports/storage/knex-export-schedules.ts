/** hi_candidate_export_schedules: one per organization. */
import type { Knex } from 'knex';
import type { ExportFormat } from '../domain/export-record';
import { nextRunAfter, type ExportCadence, type ExportSchedule, type ExportScheduleRepository } from '../domain/export-schedule';

const fromRow = (row: Record<string, any>): ExportSchedule => ({
  organizationId: row.organization_id,
  format: row.format as ExportFormat,
  filters: { ...(row.listing_id ? { listingId: row.listing_id } : {}), ...(row.status ? { status: row.status } : {}) },
  every: row.every as ExportCadence,
  nextRunAt: new Date(row.next_run_at),
  lastDeliveredAt: row.last_delivered_at ? new Date(row.last_delivered_at) : null,
  updatedAt: new Date(row.updated_at),
});

export class KnexExportSchedules implements ExportScheduleRepository {
  constructor(private readonly db: Knex) {}

  async find(organizationId: string): Promise<ExportSchedule | undefined> {
    const row = await this.db('hi_candidate_export_schedules').where({ organization_id: organizationId }).first();
    return row ? fromRow(row) : undefined;
  }

  async save(s: ExportSchedule): Promise<void> {
    await this.db('hi_candidate_export_schedules')
      .insert({
        organization_id: s.organizationId,
        format: s.format,
        listing_id: s.filters.listingId ?? null,
        status: s.filters.status ?? null,
        every: s.every,
        next_run_at: s.nextRunAt,
        last_delivered_at: s.lastDeliveredAt,
        updated_at: s.updatedAt,
      })
      .onConflict('organization_id')
      .merge(['format', 'listing_id', 'status', 'every', 'next_run_at', 'updated_at']);
  }

  async delete(organizationId: string): Promise<boolean> {
    return (await this.db('hi_candidate_export_schedules').where({ organization_id: organizationId }).delete()) > 0;
  }

  async claimDue(now: Date, limit: number): Promise<ExportSchedule[]> {
    const due = await this.db('hi_candidate_export_schedules')
      .select('organization_id', 'every')
      .where('next_run_at', '<=', now)
      .orderBy('next_run_at')
      .limit(limit);
    const claimed: ExportSchedule[] = [];
    for (const row of due) {
      const [updated] = await this.db('hi_candidate_export_schedules')
        .where({ organization_id: row.organization_id })
        .where('next_run_at', '<=', now)
        .update({ next_run_at: nextRunAfter(row.every as ExportCadence, now) })
        .returning('*');
      // The previous next_run_at is what this occurrence was for; another process may have taken it.
      if (updated) claimed.push(fromRow(updated));
    }
    return claimed;
  }

  async delivered(organizationId: string, upTo: Date): Promise<void> {
    await this.db('hi_candidate_export_schedules').where({ organization_id: organizationId }).update({ last_delivered_at: upTo });
  }
}
