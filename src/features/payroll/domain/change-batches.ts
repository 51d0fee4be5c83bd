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
import { createHash } from 'node:crypto';
import { invalid } from '../../../kernel/errors';
import type { EventPublisher } from '../../../kernel/events';
import type { Logger } from '../../../kernel/logger';
import type { ActionRunner } from '../../action-runs/domain/action-runner';
import { announce } from '../../hooks/domain/connector-handlers';
import { downloadChosen, type DownloadDelivery, type PayrollFileConnector } from '../../hooks/domain/connectors';
import { requireLicense, type PayoutsGate } from '../../payouts/domain/license-check';
import { CHANGE_FORMAT, changesCsv } from './change-file';
import type { EmployeeRoster, RecordKind } from './employee-roster';
import { PAYROLL_SYNC_ACTION } from './hours-batches';
import { newHiresCsv } from './new-hire-file';

export const CHANGES_DELIVERED_EVENT = 'payroll.changes_delivered';
export const CHANGE_KINDS: readonly RecordKind[] = ['update', 'rehire', 'termination'];
const CATCH_UP_DAYS = 7;
const DAY_MS = 86_400_000;

export interface DailyFile {
  date: string;
  format: string;
  destination: 'sftp' | 'download';
  fileName: string;
  path: string | null;
  sha256: string;
  rows: number;
  runId: string;
  content: string | null;
}

export class ChangeBatches {
  constructor(
    private readonly roster: EmployeeRoster,
    private readonly files: PayrollFileConnector,
    private readonly runner: ActionRunner,
    private readonly gate: PayoutsGate,
    private readonly events: EventPublisher,
    private readonly logger: Logger,
    private readonly now: () => Date,
    /** Organizations that download their payroll files (a payroll-download connection): the schedule delivers nothing for them. */
    private readonly downloads: DownloadDelivery = { deliversByDownload: async () => false },
  ) {}

  /** The change batch of `date` (YYYY-MM-DD, UTC): a finished day only, so its file never changes afterwards. */
  async deliver(organizationId: string, date: string, destination: 'sftp' | 'download'): Promise<DailyFile> {
    const { since, before } = await this.finishedDay(organizationId, date);
    const records = await this.roster.records(organizationId, CHANGE_KINDS, since, before);
    const content = changesCsv(records);
    const sha256 = digest(content);
    const fileName = `changes-${date}.csv`;
    let runId: string;
    let path: string | null = null;
    if (destination === 'sftp' && (await this.downloads.deliversByDownload(organizationId, 'payroll_files'))) throw downloadChosen();
    if (destination === 'sftp') {
      const delivered = await this.files.deliverFile({
        organizationId,
        actionKey: PAYROLL_SYNC_ACTION,
        idempotencyKey: `payroll-changes-${organizationId}-${date}`,
        fileName,
        content,
      });
      runId = delivered.deliveryId;
      path = delivered.path;
    } else {
      runId = await this.downloadRun(organizationId, `payroll-changes-download-${organizationId}-${date}-${sha256}`, sha256, fileName, records.length);
    }
    await announce(
      this.events,
      this.logger,
      CHANGES_DELIVERED_EVENT,
      organizationId,
      { date, format: CHANGE_FORMAT, destination, path, sha256, rows: records.length, run_id: runId },
      `${organizationId}-changes-${date}-${destination}-${sha256}`,
    );
    return {
      date,
      format: CHANGE_FORMAT,
      destination,
      fileName,
      path,
      sha256,
      rows: records.length,
      runId,
      content: destination === 'download' ? content : null,
    };
  }

  /** The hires recorded on `date` (a finished UTC day) as one new_hire.v1 file, for a payroll system with only a web import. */
  async downloadNewHires(organizationId: string, date: string): Promise<DailyFile> {
    const { since, before } = await this.finishedDay(organizationId, date);
    const records = await this.roster.records(organizationId, ['hire'], since, before);
    const content = newHiresCsv(records.map((r) => ({ ...r, payRate: r.newPayRate })));
    const sha256 = digest(content);
    const fileName = `new-hires-${date}.csv`;
    const runId = await this.downloadRun(organizationId, `payroll-new-hires-download-${organizationId}-${date}-${sha256}`, sha256, fileName, records.length);
    return { date, format: 'new_hire.v1', destination: 'download', fileName, path: null, sha256, rows: records.length, runId, content };
  }

  /** The scheduled delivery: every licensed organization's change batch of each of the last 7 finished days that had changes. */
  async deliverDue(at: Date = this.now()): Promise<{ delivered: number; failed: number }> {
    const outcome = { delivered: 0, failed: 0 };
    const today = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
    for (let back = CATCH_UP_DAYS; back >= 1; back -= 1) {
      const since = new Date(today - back * DAY_MS);
      const date = since.toISOString().slice(0, 10);
      for (const organizationId of await this.roster.organizationsWithRecords(CHANGE_KINDS, since, new Date(since.getTime() + DAY_MS))) {
        if (!(await this.gate.allows(organizationId, PAYROLL_SYNC_ACTION))) continue;
        if (await this.downloads.deliversByDownload(organizationId, 'payroll_files')) continue;
        try {
          await this.deliver(organizationId, date, 'sftp');
          outcome.delivered += 1;
        } catch (error) {
          outcome.failed += 1;
          this.logger.warn({ organizationId, date, err: (error as Error).message }, 'the payroll change batch failed');
        }
      }
    }
    return outcome;
  }

  private async finishedDay(organizationId: string, date: string): Promise<{ since: Date; before: Date }> {
    await requireLicense(this.gate, organizationId, PAYROLL_SYNC_ACTION);
    const since = new Date(`${date}T00:00:00Z`);
    const before = new Date(since.getTime() + DAY_MS);
    if (before.getTime() > this.now().getTime()) throw invalid('date_invalid', `${date} has not ended yet (UTC): its batch is not final`, 'date');
    return { since, before };
  }

  private async downloadRun(organizationId: string, idempotencyKey: string, sha256: string, fileName: string, rows: number): Promise<string> {
    const run = await this.runner.perform(
      { organizationId, idempotencyKey, action: PAYROLL_SYNC_ACTION, step: 'payroll_files', connector: 'download', connectionId: null, livemode: true },
      async () => ({ reference: `sha256:${sha256}`, answer: { file_name: fileName, rows } }),
    );
    return run.id;
  }
}

const digest = (content: string) => createHash('sha256').update(content, 'utf8').digest('hex');
