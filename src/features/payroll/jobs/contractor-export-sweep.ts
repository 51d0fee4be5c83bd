/**
 * Queue `payroll-contractor-export`: a repeating job (a BullMQ job scheduler every 6 hours; a
 * timer when embedded) that delivers the previous tax year's contractor file from January 10
 * to 31. Idempotent: a delivered file's run succeeded, so later occurrences change nothing.
 */
import type { Disposer } from '../../../kernel/disposer';
import type { JobContext, JobProcessor } from '../../../kernel/job-queue';
import type { Logger } from '../../../kernel/logger';
import type { BullmqJobQueue } from '../../../platform/queue/bullmq-queue';
import { scheduleRepeatingJob } from '../../../platform/queue/repeating-job';
import type { ContractorExports } from '../domain/contractor-exports';

export const CONTRACTOR_EXPORT_QUEUE = 'payroll-contractor-export';
const INTERVAL_MS = 6 * 3600_000;

export class ContractorExportSweep implements JobProcessor<Record<string, never>> {
  readonly queue = CONTRACTOR_EXPORT_QUEUE;

  constructor(private readonly exports: ContractorExports) {}

  process(_job: JobContext<Record<string, never>>): Promise<{ delivered: number; failed: number }> {
    return this.exports.deliverYearly();
  }
}

export function scheduleContractorExports(processor: JobProcessor, bullmq: BullmqJobQueue | undefined, logger: Logger): Promise<Disposer> {
  return scheduleRepeatingJob(
    { processor, schedulerId: CONTRACTOR_EXPORT_QUEUE, jobName: 'yearly', intervalMs: INTERVAL_MS, label: 'the yearly contractor export' },
    bullmq,
    logger,
  );
}
