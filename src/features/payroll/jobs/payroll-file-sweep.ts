/**
 * Queue `payroll-file-sweep`: a repeating job (a BullMQ job scheduler every 6 hours; a timer
 * when embedded) that delivers the scheduled payroll files: each finished day's worked-hours
 * batch and change batch (the last 7 days) and, from January 10 to 31, the previous tax year's contractor file.
 * Idempotent: a file already delivered has a succeeded run (keyed by its checksum), so later
 * occurrences deliver nothing again.
 */
import type { Disposer } from '../../../kernel/disposer';
import type { JobContext, JobProcessor } from '../../../kernel/job-queue';
import type { Logger } from '../../../kernel/logger';
import type { BullmqJobQueue } from '../../../platform/queue/bullmq-queue';
import { scheduleRepeatingJob } from '../../../platform/queue/repeating-job';
import type { ContractorExports } from '../domain/contractor-exports';
import type { ChangeBatches } from '../domain/change-batches';
import type { HoursBatches } from '../domain/hours-batches';

export const PAYROLL_FILE_SWEEP_QUEUE = 'payroll-file-sweep';
const INTERVAL_MS = 6 * 3600_000;

export class PayrollFileSweep implements JobProcessor<Record<string, never>> {
  readonly queue = PAYROLL_FILE_SWEEP_QUEUE;

  constructor(
    private readonly contractors: ContractorExports,
    private readonly hours: HoursBatches,
    private readonly changes: ChangeBatches,
  ) {}

  async process(_job: JobContext<Record<string, never>>): Promise<{
    hours: { delivered: number; failed: number };
    changes: { delivered: number; failed: number };
    contractors: { delivered: number; failed: number };
  }> {
    const hours = await this.hours.deliverDue();
    const changes = await this.changes.deliverDue();
    const contractors = await this.contractors.deliverYearly();
    return { hours, changes, contractors };
  }
}

export function schedulePayrollFiles(processor: JobProcessor, bullmq: BullmqJobQueue | undefined, logger: Logger): Promise<Disposer> {
  return scheduleRepeatingJob(
    { processor, schedulerId: PAYROLL_FILE_SWEEP_QUEUE, jobName: 'sweep', intervalMs: INTERVAL_MS, label: 'the payroll file sweep' },
    bullmq,
    logger,
  );
}
