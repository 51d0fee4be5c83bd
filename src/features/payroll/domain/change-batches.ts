/**
 * Changes for payroll (payroll.payroll_sync) as a daily batch, like the worked hours: the
 * changes recorded on one UTC day (from employee.updated and employee.terminated) leave as one
 * `change.v1` file, `changes-<day>.csv`, to the organization's SFTP server (or answered for
 * download), each delivery an action run whose reference is the file's SHA-256. A day's file is
 * delivered once (its run's key names the day) and only once the day has ended, so it never
 * changes afterwards; the sweep delivers each of the last 7 finished days that had changes.
 * The day's hires can be downloaded the same way as one new_hire.v1 file (over SFTP each hire
 * already leaves as its own file).
 */
import type { EventPublisher } from '../../../kernel/events';
import type { Logger } from '../../../kernel/logger';
import type { ActionRunner } from '../../action-runs/domain/action-runner';
import type { DownloadDelivery, PayrollFileConnector } from '../../hooks/domain/connectors';
import type { PayoutsGate } from '../../payouts/domain/license-check';
import { CHANGE_FORMAT, changesCsv } from './change-file';
import { DailyFileDelivery, deliverLastDays, finishedDay, sha256Of, type DailyFile } from './daily-files';
import type { EmployeeRoster, RecordKind } from './employee-roster';
import { newHiresCsv } from './new-hire-file';

export const CHANGES_DELIVERED_EVENT = 'payroll.changes_delivered';
export const CHANGE_KINDS: readonly RecordKind[] = ['update', 'rehire', 'termination'];

export class ChangeBatches {
  private readonly delivery: DailyFileDelivery;

  constructor(
    private readonly roster: EmployeeRoster,
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

  /** The change batch of `date` (YYYY-MM-DD, UTC): a finished day only, so its file never changes afterwards. */
  async deliver(organizationId: string, date: string, destination: 'sftp' | 'download'): Promise<DailyFile> {
    const { since, before } = await finishedDay(this.gate, this.now(), organizationId, date);
    const records = await this.roster.records(organizationId, CHANGE_KINDS, since, before);
    return this.delivery.deliver({
      organizationId,
      date,
      destination,
      name: 'changes',
      format: CHANGE_FORMAT,
      content: changesCsv(records),
      rows: records.length,
      event: CHANGES_DELIVERED_EVENT,
      eventKey: (sha256) => `${organizationId}-changes-${date}-${destination}-${sha256}`,
    });
  }

  /** The hires recorded on `date` (a finished UTC day) as one new_hire.v1 file, for a payroll system with only a web import. */
  async downloadNewHires(organizationId: string, date: string): Promise<DailyFile> {
    const { since, before } = await finishedDay(this.gate, this.now(), organizationId, date);
    const records = await this.roster.records(organizationId, ['hire'], since, before);
    const content = newHiresCsv(records.map((r) => ({ ...r, payRate: r.newPayRate })));
    const sha256 = sha256Of(content);
    const fileName = `new-hires-${date}.csv`;
    const runId = await this.delivery.downloadRun(
      organizationId,
      `payroll-new-hires-download-${organizationId}-${date}-${sha256}`,
      sha256,
      fileName,
      records.length,
    );
    return { date, format: 'new_hire.v1', destination: 'download', fileName, path: null, sha256, rows: records.length, runId, content };
  }

  /** The scheduled delivery: every licensed organization's change batch of each of the last 7 finished days that had changes. */
  deliverDue(at: Date = this.now()): Promise<{ delivered: number; failed: number }> {
    return deliverLastDays({
      at,
      organizationsWith: (since, before) => this.roster.organizationsWithRecords(CHANGE_KINDS, since, before),
      gate: this.gate,
      downloads: this.downloads,
      deliver: (organizationId, date) => this.deliver(organizationId, date, 'sftp'),
      logger: this.logger,
      failure: 'the payroll change batch failed',
    });
  }
}
