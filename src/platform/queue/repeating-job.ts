/**
 * A job that runs every `intervalMs`. With Redis: a BullMQ job scheduler (one schedule however
 * many processes upsert it; a worker runs each occurrence). Embedded: a timer in this process
 * runs the same processor, never two occurrences at once.
 */
import type { Disposer } from '../../kernel/disposer';
import type { JobProcessor } from '../../kernel/job-queue';
import type { Logger } from '../../kernel/logger';
import type { BullmqJobQueue } from './bullmq-queue';

export interface RepeatingJob {
  processor: JobProcessor;
  /** The BullMQ job scheduler's id, and the job name of each occurrence. */
  schedulerId: string;
  jobName: string;
  intervalMs: number;
  /** What the log says when it cannot be scheduled or an occurrence fails, e.g. "the billing renewal job". */
  label: string;
}

export async function scheduleRepeatingJob(job: RepeatingJob, bullmq: BullmqJobQueue | undefined, logger: Logger): Promise<Disposer> {
  const { processor, schedulerId, jobName, intervalMs, label } = job;
  if (bullmq) {
    // Upserted in the background and again every interval: a Redis that is down at start (or
    // restarted without persistence) delays the schedule, never activation.
    let upserting = false;
    const upsert = () => {
      if (upserting) return;
      upserting = true;
      bullmq
        .schedule(processor.queue, schedulerId, intervalMs, jobName)
        .catch((error: Error) => logger.warn({ err: error.message }, `could not schedule ${label}`))
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
      .process({ id: `${jobName}-${Date.now()}`, name: jobName, data: {}, attempt: 1, maxAttempts: 1 })
      .catch((error: Error) => logger.error({ err: error.message }, `${label} failed`))
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
