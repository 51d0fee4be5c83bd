/**
 * Queue `job-import`: one import of a feed (the job the API or the sweep queued through the
 * outbox). Idempotent: the job id names the import, and a finished import is not run again.
 */
import { UnrecoverableJobError, type JobContext, type JobProcessor } from '../../../kernel/job-queue';
import { hasPrefix } from '../../../kernel/ids';
import { JOB_IMPORT_QUEUE } from '../domain/job-import';
import type { JobImports } from '../domain/job-imports';

export class JobImportProcessor implements JobProcessor<{ import_id: string }> {
  readonly queue = JOB_IMPORT_QUEUE;

  constructor(private readonly imports: JobImports) {}

  async process(job: JobContext<{ import_id: string }>): Promise<{ status: string | null }> {
    if (!hasPrefix(job.data.import_id, 'jimp')) throw new UnrecoverableJobError('job-import job without an import id');
    return { status: (await this.imports.perform(job.data.import_id))?.status ?? null };
  }
}
