/**
 * Queue `candidate-privacy`: builds an export (`export`, job id `export-<id>`) or runs an
 * erasure (`erasure`, job id `erasure-<id>`). Payloads name the request, never the
 * candidate. Both are idempotent; an erasure resumes at the first store not yet done.
 */
import { inject, injectable } from 'tsyringe';
import { UnrecoverableJobError, type JobContext, type JobProcessor } from '../../../kernel/job-queue';
import { hasPrefix } from '../../../kernel/ids';
import { CandidateErasureService } from '../domain/candidate-erasure-service';
import { CandidateExportService } from '../domain/candidate-export-service';
import { PRIVACY_QUEUE } from '../domain/privacy-requests';
import { RetentionSweep } from '../domain/retention-sweep';

/** The daily retention pass's job name (a job scheduler with Redis, a timer embedded). */
export const RETENTION_JOB = 'retention';

export interface PrivacyJob {
  export_id?: string;
  erasure_id?: string;
}

@injectable()
export class CandidatePrivacyProcessor implements JobProcessor<PrivacyJob> {
  readonly queue = PRIVACY_QUEUE;

  constructor(
    @inject(CandidateExportService) private readonly exports: CandidateExportService,
    @inject(CandidateErasureService) private readonly erasures: CandidateErasureService,
    @inject(RetentionSweep) private readonly retention: RetentionSweep,
  ) {}

  async process(job: JobContext<PrivacyJob>): Promise<{ outcome: string }> {
    if (job.name === 'export' && hasPrefix(job.data.export_id, 'cex')) {
      const exportId = job.data.export_id;
      try {
        return { outcome: await this.exports.build(exportId) };
      } catch (error) {
        if (job.attempt >= job.maxAttempts) await this.exports.fail(exportId, (error as Error).message);
        throw error;
      }
    }
    if (job.name === 'erasure' && hasPrefix(job.data.erasure_id, 'cer')) return { outcome: await this.erasures.run(job.data.erasure_id) };
    if (job.name === RETENTION_JOB) {
      const report = await this.retention.run();
      return { outcome: `retention: ${JSON.stringify(report.erasures_started)}, held ${report.held}` };
    }
    throw new UnrecoverableJobError(`candidate-privacy job "${job.name}" without its request id`);
  }
}
