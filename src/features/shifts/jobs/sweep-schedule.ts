/** The shift reminder sweep's schedule: every 5 minutes (a repeating job: BullMQ scheduler, or a timer when embedded). */
import type { Disposer } from '../../../kernel/disposer';
import type { JobProcessor } from '../../../kernel/job-queue';
import type { Logger } from '../../../kernel/logger';
import type { BullmqJobQueue } from '../../../platform/queue/bullmq-queue';
import { scheduleRepeatingJob } from '../../../platform/queue/repeating-job';

export const SHIFT_SWEEP_SCHEDULER_ID = 'shift-reminder-sweep';
/** A reminder whose delayed job was lost goes out at most this late. */
export const SHIFT_SWEEP_INTERVAL_MS = 5 * 60_000;

export function scheduleShiftSweep(processor: JobProcessor, bullmq: BullmqJobQueue | undefined, logger: Logger): Promise<Disposer> {
  return scheduleRepeatingJob(
    { processor, schedulerId: SHIFT_SWEEP_SCHEDULER_ID, jobName: 'sweep', intervalMs: SHIFT_SWEEP_INTERVAL_MS, label: 'the shift reminder sweep' },
    bullmq,
    logger,
  );
}
