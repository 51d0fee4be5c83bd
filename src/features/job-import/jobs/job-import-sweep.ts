/**
 * Queue `job-import-sweep`: the repeating job that queues the imports of the feeds due.
 * Idempotent: a feed is claimed in the database as it is queued (its next run moved on), and
 * a feed with an import already pending gets no second one.
 */
import type { JobContext, JobProcessor } from '../../../kernel/job-queue';
import type { JobImports } from '../domain/job-imports';

export const JOB_IMPORT_SWEEP_QUEUE = 'job-import-sweep';

export class JobImportSweepProcessor implements JobProcessor<Record<string, never>> {
  readonly queue = JOB_IMPORT_SWEEP_QUEUE;

  constructor(private readonly imports: JobImports) {}

  process(_job: JobContext<Record<string, never>>): Promise<{ queued: number }> {
    return this.imports.sweep();
  }
}
