/**
 * Worked hours for payroll (payroll.payroll_sync): the timesheets approved on one UTC day leave
 * as one `hours.v1` file, `hours-<day>.csv`, to the organization's SFTP server (or answered for
 * download), each delivery an action run whose reference is the file's SHA-256. A day's file is
 * delivered once: its run's key names the day, so a retried sweep sends nothing twice. The
 * sweep delivers each of the last 7 finished days that had approvals (a missed sweep catches up).
 */
import { createHash } from 'node:crypto';
import { invalid } from '../../../kernel/errors';
import type { EventPublisher } from '../../../kernel/events';
import type { Logger } from '../../../kernel/logger';
import type { ActionRunner } from '../../action-runs/domain/action-runner';
import { announce } from '../../hooks/domain/connector-handlers';
import { downloadChosen, type DownloadDelivery, type PayrollFileConnector } from '../../hooks/domain/connectors';
import { requireLicense, type PayoutsGate } from '../../payouts/domain/license-check';
import type { ApprovedTimesheets } from '../../timesheets/domain/ports';
import { HOURS_FORMAT, hoursCsv } from './hours-file';

export const PAYROLL_SYNC_ACTION = 'payroll.payroll_sync';
export const HOURS_DELIVERED_EVENT = 'payroll.hours_delivered';
const CATCH_UP_DAYS = 7;
const DAY_MS = 86_400_000;

/** Organizations with timesheets approved in a window (the sweep's candidates). */
export interface ApprovalActivity {
  organizationsWithApprovals(since: Date, before: Date): Promise<string[]>;
}

export interface HoursBatch {
  date: string;
  format: typeof HOURS_FORMAT;
  destination: 'sftp' | 'download';
  fileName: string;
  path: string | null;
  sha256: string;
  rows: number;
  runId: string;
  content: string | null;
}

export class HoursBatches {
  constructor(
    private readonly timesheets: () => ApprovedTimesheets | undefined,
    private readonly activity: ApprovalActivity,
    private readonly files: PayrollFileConnector,
    private readonly runner: ActionRunner,
    private readonly gate: PayoutsGate,
    private readonly events: EventPublisher,
    private readonly logger: Logger,
    private readonly now: () => Date,
    /** Organizations that download their payroll files (a payroll-download connection): the schedule delivers nothing for them. */
    private readonly downloads: DownloadDelivery = { deliversByDownload: async () => false },
  ) {}

  /** The batch of `date` (YYYY-MM-DD, UTC): a finished day only, so its file never changes afterwards. */
  async deliver(organizationId: string, date: string, destination: 'sftp' | 'download'): Promise<HoursBatch> {
    await requireLicense(this.gate, organizationId, PAYROLL_SYNC_ACTION);
    const since = new Date(`${date}T00:00:00Z`);
    const before = new Date(since.getTime() + DAY_MS);
    if (before.getTime() > this.now().getTime()) throw invalid('date_invalid', `${date} has not ended yet (UTC): its batch is not final`, 'date');
    const approved = (await this.timesheets()?.list(organizationId, { approvedSince: since, approvedBefore: before })) ?? [];
    const content = hoursCsv(approved);
    const sha256 = createHash('sha256').update(content, 'utf8').digest('hex');
    const fileName = `hours-${date}.csv`;
    let runId: string;
    let path: string | null = null;
    if (destination === 'sftp' && (await this.downloads.deliversByDownload(organizationId, 'payroll_files'))) throw downloadChosen();
    if (destination === 'sftp') {
      const delivered = await this.files.deliverFile({
        organizationId,
        actionKey: PAYROLL_SYNC_ACTION,
        idempotencyKey: `payroll-hours-${organizationId}-${date}`,
        fileName,
        content,
      });
      runId = delivered.deliveryId;
      path = delivered.path;
    } else {
      const run = await this.runner.perform(
        {
          organizationId,
          idempotencyKey: `payroll-hours-download-${organizationId}-${date}-${sha256}`,
          action: PAYROLL_SYNC_ACTION,
          step: 'payroll_files',
          connector: 'download',
          connectionId: null,
          livemode: true,
        },
        async () => ({ reference: `sha256:${sha256}`, answer: { file_name: fileName, rows: approved.length } }),
      );
      runId = run.id;
    }
    await announce(
      this.events,
      this.logger,
      HOURS_DELIVERED_EVENT,
      organizationId,
      { date, format: HOURS_FORMAT, destination, path, sha256, rows: approved.length, run_id: runId },
      `${organizationId}-${date}-${destination}-${sha256}`,
    );
    return {
      date,
      format: HOURS_FORMAT,
      destination,
      fileName,
      path,
      sha256,
      rows: approved.length,
      runId,
      content: destination === 'download' ? content : null,
    };
  }

  /** The scheduled delivery: every licensed organization's batch of each of the last 7 finished days that had approvals. */
  async deliverDue(at: Date = this.now()): Promise<{ delivered: number; failed: number }> {
    const outcome = { delivered: 0, failed: 0 };
    const today = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
    for (let back = CATCH_UP_DAYS; back >= 1; back -= 1) {
      const since = new Date(today - back * DAY_MS);
      const date = since.toISOString().slice(0, 10);
      for (const organizationId of await this.activity.organizationsWithApprovals(since, new Date(since.getTime() + DAY_MS))) {
        if (!(await this.gate.allows(organizationId, PAYROLL_SYNC_ACTION))) continue;
        if (await this.downloads.deliversByDownload(organizationId, 'payroll_files')) continue;
        try {
          await this.deliver(organizationId, date, 'sftp');
          outcome.delivered += 1;
        } catch (error) {
          outcome.failed += 1;
          this.logger.warn({ organizationId, date, err: (error as Error).message }, 'the worked-hours batch failed');
        }
      }
    }
    return outcome;
  }
}
