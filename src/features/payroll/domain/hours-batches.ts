/**
 * Worked hours for payroll (payroll.payroll_sync): the timesheets approved on one UTC day leave
 * as one `hours.v1` file, `hours-<day>.csv`, to the organization's SFTP server (or answered for
 * download), each delivery an action run whose reference is the file's SHA-256. A day's file is
 * delivered once: its run's key names the day, so a retried sweep sends nothing twice. The
 * sweep delivers each of the last 7 finished days that had approvals (a missed sweep catches up).
 */
import type { EventPublisher } from '../../../kernel/events';
import type { Logger } from '../../../kernel/logger';
import type { ActionRunner } from '../../action-runs/domain/action-runner';
import type { DownloadDelivery, PayrollFileConnector } from '../../hooks/domain/connectors';
import type { PayoutsGate } from '../../payouts/domain/license-check';
import type { ApprovedTimesheets } from '../../timesheets/domain/ports';
import { DailyFileDelivery, deliverLastDays, finishedDay, type DailyFile } from './daily-files';
import { HOURS_FORMAT, hoursCsv } from './hours-file';

export const HOURS_DELIVERED_EVENT = 'payroll.hours_delivered';

/** Organizations with timesheets approved in a window (the sweep's candidates). */
export interface ApprovalActivity {
  organizationsWithApprovals(since: Date, before: Date): Promise<string[]>;
}

export type HoursBatch = DailyFile & { format: typeof HOURS_FORMAT };

export class HoursBatches {
  private readonly delivery: DailyFileDelivery;

  constructor(
    private readonly timesheets: () => ApprovedTimesheets | undefined,
    private readonly activity: ApprovalActivity,
    files: PayrollFileConnector,
    runner: ActionRunner,
    private readonly gate: PayoutsGate,
    events: EventPublisher,
    private readonly logger: Logger,
    private readonly now: () => Date,
    /** Organizations that download their payroll files (a payroll-download connection): the schedule delivers nothing for them. */
    private readonly downloads: DownloadDelivery = { deliversByDownload: async () => false },
  ) {
    this.delivery = new DailyFileDelivery(files, runner, events, logger, downloads);
  }

  /** The batch of `date` (YYYY-MM-DD, UTC): a finished day only, so its file never changes afterwards. */
  async deliver(organizationId: string, date: string, destination: 'sftp' | 'download'): Promise<HoursBatch> {
    const { since, before } = await finishedDay(this.gate, this.now(), organizationId, date);
    const approved = (await this.timesheets()?.list(organizationId, { approvedSince: since, approvedBefore: before })) ?? [];
    const file = await this.delivery.deliver({
      organizationId,
      date,
      destination,
      name: 'hours',
      format: HOURS_FORMAT,
      content: hoursCsv(approved),
      rows: approved.length,
      event: HOURS_DELIVERED_EVENT,
      eventKey: (sha256) => `${organizationId}-${date}-${destination}-${sha256}`,
    });
    return { ...file, format: HOURS_FORMAT };
  }

  /** The scheduled delivery: every licensed organization's batch of each of the last 7 finished days that had approvals. */
  deliverDue(at: Date = this.now()): Promise<{ delivered: number; failed: number }> {
    return deliverLastDays({
      at,
      organizationsWith: (since, before) => this.activity.organizationsWithApprovals(since, before),
      gate: this.gate,
      downloads: this.downloads,
      deliver: (organizationId, date) => this.deliver(organizationId, date, 'sftp'),
      logger: this.logger,
      failure: 'the worked-hours batch failed',
    });
  }
}
