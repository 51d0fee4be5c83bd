/**
 * What the daily payroll files (worked hours, changes) share: the file of one finished UTC day
 * (so it never changes afterwards), delivered once to the organization's SFTP server or answered
 * for download, each delivery an action run whose reference is the file's SHA-256 and an event;
 * and the sweep that delivers each of the last 7 finished days (a missed sweep catches up).
 */
import { createHash } from 'node:crypto';
import { invalid } from '../../../kernel/errors';
import type { EventPublisher } from '../../../kernel/events';
import type { Logger } from '../../../kernel/logger';
import type { ActionRunner } from '../../action-runs/domain/action-runner';
import { announce } from '../../hooks/domain/connector-handlers';
import { downloadChosen, type DownloadDelivery, type PayrollFileConnector } from '../../hooks/domain/connectors';
import { requireLicense, type PayoutsGate } from '../../payouts/domain/license-check';

export const PAYROLL_SYNC_ACTION = 'payroll.payroll_sync';
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

/** One day's file: `<name>-<date>.csv`; `name` also names its runs' keys. */
export interface DailyFileOf {
  organizationId: string;
  date: string;
  destination: 'sftp' | 'download';
  name: string;
  format: string;
  content: string;
  rows: number;
  event: string;
  /** The event's dedupe key, from the file's digest. */
  eventKey: (sha256: string) => string;
}

export const sha256Of = (content: string) => createHash('sha256').update(content, 'utf8').digest('hex');

/** The window of `date` (YYYY-MM-DD, UTC) once the organization holds the license and the day has ended. */
export async function finishedDay(gate: PayoutsGate, now: Date, organizationId: string, date: string): Promise<{ since: Date; before: Date }> {
  await requireLicense(gate, organizationId, PAYROLL_SYNC_ACTION);
  const since = new Date(`${date}T00:00:00Z`);
  const before = new Date(since.getTime() + DAY_MS);
  if (before.getTime() > now.getTime()) throw invalid('date_invalid', `${date} has not ended yet (UTC): its batch is not final`, 'date');
  return { since, before };
}

export class DailyFileDelivery {
  constructor(
    private readonly files: PayrollFileConnector,
    private readonly runner: ActionRunner,
    private readonly events: EventPublisher,
    private readonly logger: Logger,
    private readonly downloads: DownloadDelivery,
  ) {}

  async deliver(file: DailyFileOf): Promise<DailyFile> {
    const { organizationId, date, destination, name } = file;
    const sha256 = sha256Of(file.content);
    const fileName = `${name}-${date}.csv`;
    let runId: string;
    let path: string | null = null;
    if (destination === 'sftp') {
      if (await this.downloads.deliversByDownload(organizationId, 'payroll_files')) throw downloadChosen();
      // The run's key names the day: a retried sweep sends nothing twice.
      const delivered = await this.files.deliverFile({
        organizationId,
        actionKey: PAYROLL_SYNC_ACTION,
        idempotencyKey: `payroll-${name}-${organizationId}-${date}`,
        fileName,
        content: file.content,
      });
      runId = delivered.deliveryId;
      path = delivered.path;
    } else {
      runId = await this.downloadRun(organizationId, `payroll-${name}-download-${organizationId}-${date}-${sha256}`, sha256, fileName, file.rows);
    }
    await announce(
      this.events,
      this.logger,
      file.event,
      organizationId,
      { date, format: file.format, destination, path, sha256, rows: file.rows, run_id: runId },
      file.eventKey(sha256),
    );
    return {
      date,
      format: file.format,
      destination,
      fileName,
      path,
      sha256,
      rows: file.rows,
      runId,
      content: destination === 'download' ? file.content : null,
    };
  }

  /** A download is an action run too (connector `download`), its reference the file's digest. */
  async downloadRun(organizationId: string, idempotencyKey: string, sha256: string, fileName: string, rows: number): Promise<string> {
    const run = await this.runner.perform(
      { organizationId, idempotencyKey, action: PAYROLL_SYNC_ACTION, step: 'payroll_files', connector: 'download', connectionId: null, livemode: true },
      async () => ({ reference: `sha256:${sha256}`, answer: { file_name: fileName, rows } }),
    );
    return run.id;
  }
}

/** The sweep: each of the last 7 finished days, for every organization with something that day that holds the license and does not download. */
export async function deliverLastDays(options: {
  at: Date;
  organizationsWith: (since: Date, before: Date) => Promise<string[]>;
  gate: PayoutsGate;
  downloads: DownloadDelivery;
  deliver: (organizationId: string, date: string) => Promise<unknown>;
  logger: Logger;
  failure: string;
}): Promise<{ delivered: number; failed: number }> {
  const { at, gate, downloads, logger } = options;
  const outcome = { delivered: 0, failed: 0 };
  const today = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  for (let back = CATCH_UP_DAYS; back >= 1; back -= 1) {
    const since = new Date(today - back * DAY_MS);
    const date = since.toISOString().slice(0, 10);
    for (const organizationId of await options.organizationsWith(since, new Date(since.getTime() + DAY_MS))) {
      if (!(await gate.allows(organizationId, PAYROLL_SYNC_ACTION))) continue;
      if (await downloads.deliversByDownload(organizationId, 'payroll_files')) continue;
      try {
        await options.deliver(organizationId, date);
        outcome.delivered += 1;
      } catch (error) {
        outcome.failed += 1;
        logger.warn({ organizationId, date, err: (error as Error).message }, options.failure);
      }
    }
  }
  return outcome;
}
