/**
 * An organization's scheduled export to its SFTP connection: the format, optional filters,
 * a cadence (daily or weekly) and where the last delivery left off. Each delivery carries
 * the applications created since the previous successful one (the first, everything), so
 * the file drop receives every application once, in files named by their time.
 */
import type { ExportFilters, ExportFormat } from './export-record';

export const EXPORT_CADENCES = ['hourly', 'daily', 'weekly'] as const;
export type ExportCadence = (typeof EXPORT_CADENCES)[number];

const CADENCE_MS: Record<ExportCadence, number> = { hourly: 3_600_000, daily: 86_400_000, weekly: 7 * 86_400_000 };

export interface ExportSchedule {
  organizationId: string;
  format: ExportFormat;
  filters: Pick<ExportFilters, 'listingId' | 'status'>;
  every: ExportCadence;
  nextRunAt: Date;
  lastDeliveredAt: Date | null;
  updatedAt: Date;
}

export const nextRunAfter = (every: ExportCadence, at: Date): Date => new Date(at.getTime() + CADENCE_MS[every]);

export interface ExportScheduleRepository {
  find(organizationId: string): Promise<ExportSchedule | undefined>;
  save(schedule: ExportSchedule): Promise<void>;
  delete(organizationId: string): Promise<boolean>;
  /**
   * Claims the schedules due at `now` (next_run_at moved on in the same statement, so two
   * processes never deliver the same occurrence); at most `limit`.
   */
  claimDue(now: Date, limit: number): Promise<ExportSchedule[]>;
  delivered(organizationId: string, upTo: Date): Promise<void>;
}

export const EXPORT_SCHEDULE_REPOSITORY = Symbol('ExportScheduleRepository');
