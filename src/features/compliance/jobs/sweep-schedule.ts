/** The compliance sweep's schedule: every COMPLIANCE_SWEEP_INTERVAL_SECONDS (a repeating job: BullMQ scheduler, or a timer when embedded). */
import type { BullmqJobQueue } from '../../../platform/queue/bullmq-queue';
import { scheduleRepeatingJob } from '../../../platform/queue/repeating-job';
import type { JobProcessor } from '../../../kernel/job-queue';
import type { Disposer } from '../../../kernel/disposer';
import type { Logger } from '../../../kernel/logger';

export const SWEEP_SCHEDULER_ID = 'compliance-sweep';

export function scheduleComplianceSweep(processor: JobProcessor, intervalMs: number, bullmq: BullmqJobQueue | undefined, logger: Logger): Promise<Disposer> {
  return scheduleRepeatingJob({ processor, schedulerId: SWEEP_SCHEDULER_ID, jobName: 'sweep', intervalMs, label: 'the compliance sweep' }, bullmq, logger);
}
