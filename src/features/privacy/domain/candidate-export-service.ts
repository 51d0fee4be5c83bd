/**
 * Exports (GDPR Art. 15/20): a request records a pending export and its job in one
 * transaction; the job reads every registered store and keeps the document until the
 * export expires; a signed link valid for minutes lets a browser download it.
 */
import { inject, injectable } from 'tsyringe';
import { CLOCK, type Clock } from '../../../kernel/clock';
import { notFound } from '../../../kernel/errors';
import { newId } from '../../../kernel/ids';
import type { CandidateSubject } from './candidate-data';
import type { CandidateDataRegistry } from './candidate-data-registry';
import { buildExportDocument } from './export-document';
import type { PrivacyKeys } from './privacy-keys';
import { PRIVACY_QUEUE, PRIVACY_REQUEST_REPOSITORY, type CandidateExport, type PrivacyRequestRepository } from './privacy-requests';
import { CANDIDATE_DATA_REGISTRY, PRIVACY_KEYS } from './tokens';

/** How long a finished export is kept (then retention deletes it). */
export const EXPORT_KEPT_DAYS = 7;
/** How long a signed download link works. */
export const EXPORT_LINK_SECONDS = 15 * 60;

export const exportJobId = (exportId: string) => `export-${exportId}`;

export interface ExportLink {
  url: string;
  expiresAt: Date;
}

@injectable()
export class CandidateExportService {
  constructor(
    @inject(PRIVACY_REQUEST_REPOSITORY) private readonly requests: PrivacyRequestRepository,
    @inject(CANDIDATE_DATA_REGISTRY) private readonly registry: CandidateDataRegistry,
    @inject(PRIVACY_KEYS) private readonly keys: PrivacyKeys,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** 404 for a candidate the organization holds nothing about (another organization's candidate, say). */
  async request(subject: CandidateSubject): Promise<CandidateExport> {
    if (!(await this.holdsAnything(subject))) throw notFound('candidate', subject.profileUserId);
    const now = this.clock.now();
    const record: CandidateExport = {
      id: newId('cex'),
      subject,
      status: 'pending',
      document: null,
      failureReason: null,
      createdAt: now,
      completedAt: null,
      expiresAt: new Date(now.getTime() + EXPORT_KEPT_DAYS * 86_400_000),
    };
    await this.requests.createExport(record, [{ queue: PRIVACY_QUEUE, name: 'export', data: { export_id: record.id }, jobId: exportJobId(record.id) }]);
    return record;
  }

  async get(organizationId: string, exportId: string): Promise<CandidateExport> {
    const found = await this.requests.findExport(organizationId, exportId);
    if (!found || found.expiresAt <= this.clock.now()) throw notFound('export', exportId);
    return found;
  }

  /** The job: builds the document once; a finished export is left alone. */
  async build(exportId: string): Promise<'built' | 'done' | 'missing'> {
    const record = await this.requests.findExportById(exportId);
    if (!record) return 'missing';
    if (record.status !== 'pending') return 'done';
    const document = await buildExportDocument(this.registry.stores, record.subject, this.clock.now());
    await this.requests.settleExport(exportId, { document }, this.clock.now());
    return 'built';
  }

  /** Called by the job's last attempt: the export will not be built. */
  async fail(exportId: string, reason: string): Promise<void> {
    await this.requests.settleExport(exportId, { failureReason: reason.slice(0, 500) }, this.clock.now());
  }

  /** `baseUrl`: the plugin's public URL (mount path included). */
  downloadLink(record: CandidateExport, baseUrl: string): ExportLink | null {
    if (record.status !== 'succeeded') return null;
    const expires = Math.floor(this.clock.now().getTime() / 1000) + EXPORT_LINK_SECONDS;
    const signature = this.keys.signExportLink(record.id, expires);
    return {
      url: `${baseUrl}/v1/candidates/${record.subject.profileUserId}/exports/${record.id}/download?expires=${expires}&signature=${signature}`,
      expiresAt: new Date(expires * 1000),
    };
  }

  /** The export behind a signed link, or 404 for a wrong, expired or forged one (no hint which). */
  async download(exportId: string, expires: number, signature: string): Promise<CandidateExport> {
    const now = this.clock.now();
    if (!this.keys.verifyExportLink(exportId, expires, signature, now)) throw notFound('export', exportId);
    const record = await this.requests.findExportById(exportId);
    if (!record || record.status !== 'succeeded' || record.expiresAt <= now) throw notFound('export', exportId);
    return record;
  }

  private async holdsAnything(subject: CandidateSubject): Promise<boolean> {
    for (const store of this.registry.stores) {
      if ((await store.export(subject)).length > 0) return true;
    }
    return false;
  }
}
