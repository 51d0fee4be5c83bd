/**
 * Starts the compliance sweep's schedule. With Redis: a BullMQ job scheduler (one schedule
 * however many processes upsert it). Embedded: a timer in this process runs the processor.
 */
import type { BullmqJobQueue } from '../../../platform/queue/bullmq-queue';
import type { JobProcessor } from '../../../kernel/job-queue';
import type { Disposer } from '../../../kernel/disposer';
import type { Logger } from '../../../kernel/logger';

export const SWEEP_SCHEDULER_ID = 'compliance-sweep';

export async function scheduleComplianceSweep(
  processor: JobProcessor,
  intervalMs: number,
  bullmq: BullmqJobQueue | undefined,
  logger: Logger,
): Promise<Disposer> {
  if (bullmq) {
    // Upserted in the background and again every interval: a Redis down at start delays the schedule, never activation.
    let upserting = false;
    const upsert = () => {
      if (upserting) return;
      upserting = true;
      bullmq
        .schedule(processor.queue, SWEEP_SCHEDULER_ID, intervalMs, 'sweep')
        .catch((error: Error) => logger.warn({ err: error.message }, 'could not schedule the compliance sweep'))
        .finally(() => (upserting = false));
    };
    upsert();
    const timer = setInterval(upsert, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    processor
      .process({ id: `sweep-${Date.now()}`, name: 'sweep', data: {}, attempt: 1, maxAttempts: 1 })
      .catch((error: Error) => logger.error({ err: error.message }, 'compliance sweep failed'))
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
