/**
 * job_import.export_candidates: an organization's applications and candidates as CSV or HR
 * Open JSON, streamed from the database, either downloaded through the API or delivered to
 * its SFTP connection (on demand or on a schedule). Every export is an action run: a
 * download succeeds once the last byte was handed to the connection (its reference the
 * file's SHA-256), a delivery once the server holds the file under its final name.
 */
import { createHash } from 'node:crypto';
import { DomainError, invalid, isDomainError, notFound } from '../../../kernel/errors';
import { randomToken } from '../../../kernel/ids';
import type { ActionRun } from '../../action-runs/domain/action-run';
import type { ActionRunner } from '../../action-runs/domain/action-runner';
import type { DeliveredFile, StreamedFile } from '../../hooks/domain/connectors';
import type { Entitlements } from '../../licensing/domain/entitlements';
import type { ExportFilters, ExportFormat, ExportSource } from './export-record';
import { nextRunAfter, type ExportCadence, type ExportSchedule, type ExportScheduleRepository } from './export-schedule';
import { exportChunks, fileExtension } from './export-stream';

export const EXPORT_CANDIDATES = 'job_import.export_candidates';

export interface CandidateExportDeps {
  source: ExportSource;
  entitlements: Entitlements;
  runner: ActionRunner;
  files: { deliverFileStream(file: StreamedFile): Promise<DeliveredFile> };
  schedules: ExportScheduleRepository;
  now: () => Date;
}

export interface FileDelivery {
  runId: string;
  fileName: string;
  path: string;
  sha256: string;
}

const stamp = (at: Date) =>
  at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');

export class CandidateExportService {
  constructor(private readonly deps: CandidateExportDeps) {}

  requireLicense(organizationId: string): Promise<void> {
    return this.deps.entitlements.requireActive(organizationId, EXPORT_CANDIDATES);
  }

  /**
   * Streams the export into `write` (which resolves once the chunk may be followed by the
   * next) as one action run (`step: download`, connector `api`). A write that fails (the
   * client went away) fails the run with `export_interrupted`.
   */
  async download(organizationId: string, format: ExportFormat, filters: ExportFilters, write: (chunk: string) => Promise<void>): Promise<ActionRun> {
    await this.requireLicense(organizationId);
    const start = {
      organizationId,
      idempotencyKey: `candidate-export-download:${randomToken(16)}`,
      action: EXPORT_CANDIDATES,
      step: 'download',
      connector: 'api',
      connectionId: null,
      livemode: true,
    };
    return this.deps.runner.perform(start, async () => {
      const hash = createHash('sha256');
      let bytes = 0;
      for await (const chunk of exportChunks(this.deps.source.records(organizationId, filters), format)) {
        hash.update(chunk, 'utf8');
        bytes += Buffer.byteLength(chunk, 'utf8');
        try {
          await write(chunk);
        } catch {
          throw new DomainError('conflict', 'export_interrupted', 'The download was cut short before its end');
        }
      }
      const sha256 = hash.digest('hex');
      return { reference: `sha256:${sha256}`, answer: { format, bytes, sha256 } };
    });
  }

  /**
   * One file onto the organization's SFTP connection (payroll_files kind), named by time:
   * `candidates-<stamp>.<ext>`. Throws the run's error (its code: connection_missing,
   * connection_host_key_mismatch, …; the failed run is on record).
   */
  async deliver(organizationId: string, format: ExportFormat, filters: ExportFilters, at = this.deps.now()): Promise<FileDelivery> {
    await this.requireLicense(organizationId);
    const fileName = `candidates-${stamp(at)}.${fileExtension(format)}`;
    const delivered = await this.deps.files.deliverFileStream({
      organizationId,
      actionKey: EXPORT_CANDIDATES,
      idempotencyKey: `candidate-export-sftp:${fileName}`,
      fileName,
      content: () => exportChunks(this.deps.source.records(organizationId, filters), format),
    });
    return { runId: delivered.deliveryId, path: delivered.path, sha256: delivered.sha256, fileName };
  }

  async schedule(organizationId: string, input: { format: ExportFormat; every: ExportCadence; filters: ExportSchedule['filters']; firstRunAt?: Date }) {
    await this.requireLicense(organizationId);
    const now = this.deps.now();
    if (input.firstRunAt && input.firstRunAt.getTime() > nextRunAfter('weekly', now).getTime()) {
      throw invalid('parameter_invalid', 'first_run_at: at most a week ahead', 'first_run_at');
    }
    const existing = await this.deps.schedules.find(organizationId);
    const schedule: ExportSchedule = {
      organizationId,
      format: input.format,
      filters: input.filters,
      every: input.every,
      nextRunAt: input.firstRunAt ?? nextRunAfter(input.every, now),
      lastDeliveredAt: existing?.lastDeliveredAt ?? null,
      updatedAt: now,
    };
    await this.deps.schedules.save(schedule);
    return schedule;
  }

  async getSchedule(organizationId: string): Promise<ExportSchedule> {
    const schedule = await this.deps.schedules.find(organizationId);
    if (!schedule) throw notFound('export_schedule');
    return schedule;
  }

  async deleteSchedule(organizationId: string): Promise<void> {
    if (!(await this.deps.schedules.delete(organizationId))) throw notFound('export_schedule');
  }

  /** The sweep: every due schedule delivers what arrived since its last delivery (license permitting). */
  async runDue(limit = 20): Promise<{ delivered: number; failed: number }> {
    const now = this.deps.now();
    let delivered = 0;
    let failed = 0;
    for (const schedule of await this.deps.schedules.claimDue(now, limit)) {
      if (!(await this.deps.entitlements.isActive(schedule.organizationId, EXPORT_CANDIDATES))) continue;
      // Up to the occurrence's instant: the next file starts there, so each application lands once.
      const filters: ExportFilters = { ...schedule.filters, ...(schedule.lastDeliveredAt ? { since: schedule.lastDeliveredAt } : {}), before: now };
      try {
        await this.deliver(schedule.organizationId, schedule.format, filters, now);
        await this.deps.schedules.delivered(schedule.organizationId, now);
        delivered += 1;
      } catch (error) {
        // The failed run is on record with its code; the next occurrence carries these applications too.
        if (!isDomainError(error)) throw error;
        failed += 1;
      }
    }
    return { delivered, failed };
  }
}
