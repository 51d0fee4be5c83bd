/**
 * Starts the renewal job's schedule. With Redis: a BullMQ job scheduler (one schedule
 * however many processes upsert it; a worker runs each occurrence). Embedded: a timer in
 * this process runs the same processor.
 */
import type { BullmqJobQueue } from '../../../platform/queue/bullmq-queue';
import type { JobProcessor } from '../../../kernel/job-queue';
import type { Disposer } from '../../../kernel/disposer';
import type { Logger } from '../../../kernel/logger';

export const RENEWAL_SCHEDULER_ID = 'billing-renewal';

export async function scheduleRenewals(processor: JobProcessor, intervalMs: number, bullmq: BullmqJobQueue | undefined, logger: Logger): Promise<Disposer> {
  if (bullmq) {
    // Upserted in the background and again every interval: a Redis that is down at start (or
    // restarted without persistence) delays the schedule, never activation.
    let upserting = false;
    const upsert = () => {
      if (upserting) return;
      upserting = true;
      bullmq
        .schedule(processor.queue, RENEWAL_SCHEDULER_ID, intervalMs, 'renew')
        .catch((error: Error) => logger.warn({ err: error.message }, 'could not schedule the billing renewal job'))
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
      .process({ id: `renew-${Date.now()}`, name: 'renew', data: {}, attempt: 1, maxAttempts: 1 })
      .catch((error: Error) => logger.error({ err: error.message }, 'billing renewal run failed'))
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
