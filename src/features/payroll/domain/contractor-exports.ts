/**
 * payroll.contractor_export: contractors' details (from their W-9) and the yearly contractor
 * file built from what they were paid: approved timesheets' pay and API payouts, in integer
 * cents. Each export is an action run whose reference is the file's SHA-256: delivered to the
 * organization's SFTP server (the payroll_files port, atomic rename) or answered for download.
 * The same bytes exported again are the same run and the same file name, never a second file.
 * A sweep delivers the previous tax year's file once in January (the filer's deadline is the
 * end of January).
 */
import { createHash } from 'node:crypto';
import { invalid, notFound } from '../../../kernel/errors';
import type { EventPublisher } from '../../../kernel/events';
import { newId } from '../../../kernel/ids';
import type { Logger } from '../../../kernel/logger';
import type { ActionRunner } from '../../action-runs/domain/action-runner';
import { announce } from '../../hooks/domain/connector-handlers';
import { downloadChosen, type DownloadDelivery, type PayrollFileConnector } from '../../hooks/domain/connectors';
import { requireLicense, type PayoutsGate } from '../../payouts/domain/license-check';
import { CONTRACTOR_EXPORT_ACTION, type Contractor, type ContractorInput, type ContractorPayments, type ContractorRepository } from './contractor';
import { CONTRACTOR_FORMAT, contractorFile } from './contractor-file';
import { totalsByWorker } from './contractor-totals';

export type ExportDestination = 'sftp' | 'download';

export interface ContractorExport {
  taxYear: number;
  format: typeof CONTRACTOR_FORMAT;
  destination: ExportDestination;
  fileName: string;
  /** Where the SFTP server holds it; null for a download. */
  path: string | null;
  sha256: string;
  rows: number;
  totalPaidCents: Record<string, number>;
  unregisteredWorkerIds: string[];
  runId: string;
  /** The file itself, for a download only. */
  content: string | null;
}

export const EXPORT_DELIVERED_EVENT = 'payroll.contractor_export_delivered';
/** The yearly file is due from this day of January (payments of late December are approved by then). */
export const YEARLY_DELIVERY_FROM_DAY = 10;

export class ContractorExports {
  constructor(
    private readonly contractors: ContractorRepository,
    private readonly payments: ContractorPayments,
    private readonly files: PayrollFileConnector,
    private readonly runner: ActionRunner,
    private readonly gate: PayoutsGate,
    private readonly events: EventPublisher,
    private readonly logger: Logger,
    private readonly now: () => Date,
    /** Organizations that download their payroll files (a payroll-download connection): the schedule delivers nothing for them. */
    private readonly downloads: DownloadDelivery = { deliversByDownload: async () => false },
  ) {}

  async save(organizationId: string, input: ContractorInput): Promise<{ contractor: Contractor; created: boolean }> {
    await requireLicense(this.gate, organizationId, CONTRACTOR_EXPORT_ACTION);
    const at = this.now();
    return this.contractors.upsert({ id: newId('pctr'), organizationId, ...input, createdAt: at, updatedAt: at });
  }

  async get(organizationId: string, id: string): Promise<Contractor> {
    const found = await this.contractors.get(organizationId, id);
    if (!found) throw notFound('contractor', id);
    return found;
  }

  async export(organizationId: string, taxYear: number, destination: ExportDestination): Promise<ContractorExport> {
    await requireLicense(this.gate, organizationId, CONTRACTOR_EXPORT_ACTION);
    const current = this.now().getUTCFullYear();
    if (taxYear > current) throw invalid('tax_year_invalid', `The tax year ${taxYear} has not begun`, 'tax_year');
    const [contractors, payments] = await Promise.all([this.contractors.all(organizationId), this.payments.inTaxYear(organizationId, taxYear)]);
    const totals = totalsByWorker(payments);
    const file = contractorFile(taxYear, contractors, totals);
    const sha256 = createHash('sha256').update(file.content, 'utf8').digest('hex');
    // The name carries the content's digest: the same bytes again are the same file, a changed year a new one.
    const fileName = `contractors-1099-${taxYear}-${sha256.slice(0, 12)}.csv`;
    const totalPaidCents: Record<string, number> = {};
    const registered = new Set(contractors.map((c) => c.workerId));
    for (const t of totals) if (registered.has(t.workerId)) totalPaidCents[t.currency] = (totalPaidCents[t.currency] ?? 0) + t.totalCents;
    let runId: string;
    let path: string | null = null;
    if (destination === 'sftp' && (await this.downloads.deliversByDownload(organizationId, 'payroll_files'))) throw downloadChosen();
    if (destination === 'sftp') {
      const delivered = await this.files.deliverFile({
        organizationId,
        actionKey: CONTRACTOR_EXPORT_ACTION,
        idempotencyKey: `contractor-export-${organizationId}-${taxYear}-${sha256}`,
        fileName,
        content: file.content,
      });
      runId = delivered.deliveryId;
      path = delivered.path;
    } else {
      // Nothing leaves the plugin: the run records that this file was handed out, with its checksum.
      const run = await this.runner.perform(
        {
          organizationId,
          idempotencyKey: `contractor-download-${organizationId}-${taxYear}-${sha256}`,
          action: CONTRACTOR_EXPORT_ACTION,
          step: 'payroll_files',
          connector: 'download',
          connectionId: null,
          livemode: true,
        },
        async () => ({ reference: `sha256:${sha256}`, answer: { file_name: fileName, rows: file.rows } }),
      );
      runId = run.id;
    }
    const result: ContractorExport = {
      taxYear,
      format: CONTRACTOR_FORMAT,
      destination,
      fileName,
      path,
      sha256,
      rows: file.rows,
      totalPaidCents,
      unregisteredWorkerIds: file.unregisteredWorkerIds,
      runId,
      content: destination === 'download' ? file.content : null,
    };
    await announce(
      this.events,
      this.logger,
      EXPORT_DELIVERED_EVENT,
      organizationId,
      { tax_year: taxYear, format: CONTRACTOR_FORMAT, destination, path, sha256, rows: file.rows, run_id: runId },
      `${organizationId}-${taxYear}-${destination}-${sha256}`,
    );
    return result;
  }

  /**
   * The scheduled delivery: from January 10 to 31 (UTC), every licensed organization with
   * contractors gets the previous tax year's file on its SFTP server. Once delivered, the
   * run of that content has succeeded and later sweeps change nothing; a failure (no SFTP
   * connection, the server away) is a failed or retrying run, tried again by the next sweep.
   */
  async deliverYearly(at: Date = this.now()): Promise<{ delivered: number; failed: number }> {
    const outcome = { delivered: 0, failed: 0 };
    if (at.getUTCMonth() !== 0 || at.getUTCDate() < YEARLY_DELIVERY_FROM_DAY) return outcome;
    const taxYear = at.getUTCFullYear() - 1;
    for (const organizationId of await this.contractors.organizations()) {
      if (!(await this.gate.allows(organizationId, CONTRACTOR_EXPORT_ACTION))) continue;
      if (await this.downloads.deliversByDownload(organizationId, 'payroll_files')) continue;
      try {
        await this.export(organizationId, taxYear, 'sftp');
        outcome.delivered += 1;
      } catch (error) {
        outcome.failed += 1;
        this.logger.warn({ organizationId, taxYear, err: (error as Error).message }, 'the yearly contractor export failed');
      }
    }
    return outcome;
  }
}
