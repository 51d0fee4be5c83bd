/** The renewal job's schedule: every BILLING_RENEWAL_INTERVAL_SECONDS (a repeating job: BullMQ scheduler, or a timer when embedded). */
import type { BullmqJobQueue } from '../../../platform/queue/bullmq-queue';
import { scheduleRepeatingJob } from '../../../platform/queue/repeating-job';
import type { JobProcessor } from '../../../kernel/job-queue';
import type { Disposer } from '../../../kernel/disposer';
import type { Logger } from '../../../kernel/logger';

export const RENEWAL_SCHEDULER_ID = 'billing-renewal';

export function scheduleRenewals(processor: JobProcessor, intervalMs: number, bullmq: BullmqJobQueue | undefined, logger: Logger): Promise<Disposer> {
  return scheduleRepeatingJob({ processor, schedulerId: RENEWAL_SCHEDULER_ID, jobName: 'renew', intervalMs, label: 'the billing renewal job' }, bullmq, logger);
}
