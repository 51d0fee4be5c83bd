/**
 * Queue `candidate-export-schedule`: a repeating job (a BullMQ job scheduler every minute; a
 * timer when embedded) that delivers each due scheduled export to its organization's SFTP
 * connection. Occurrences are claimed in the database (next_run_at moved on in the claiming
 * statement), so two processes never deliver the same one. Idempotent: a claimed occurrence is
 * delivered once; the file's run is keyed by its checksum.
 */
import type { Disposer } from '../../../kernel/disposer';
import type { JobContext, JobProcessor } from '../../../kernel/job-queue';
import type { Logger } from '../../../kernel/logger';
import type { BullmqJobQueue } from '../../../platform/queue/bullmq-queue';
import { scheduleRepeatingJob } from '../../../platform/queue/repeating-job';
import type { CandidateExportService } from '../domain/candidate-export-service';

export const EXPORT_SCHEDULE_QUEUE = 'candidate-export-schedule';
const INTERVAL_MS = 60_000;

export class ExportScheduleProcessor implements JobProcessor<Record<string, never>> {
  readonly queue = EXPORT_SCHEDULE_QUEUE;

  constructor(private readonly exports: CandidateExportService) {}

  process(_job: JobContext<Record<string, never>>): Promise<{ delivered: number; failed: number }> {
    return this.exports.runDue();
  }
}

export function scheduleExportSweep(processor: JobProcessor, bullmq: BullmqJobQueue | undefined, logger: Logger): Promise<Disposer> {
  return scheduleRepeatingJob(
    { processor, schedulerId: EXPORT_SCHEDULE_QUEUE, jobName: 'sweep', intervalMs: INTERVAL_MS, label: 'the candidate export schedule' },
    bullmq,
    logger,
  );
}
