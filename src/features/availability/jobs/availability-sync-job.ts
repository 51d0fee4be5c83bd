/**
 * Queue `availability-sync`: a repeating job (a BullMQ job scheduler every SYNC_INTERVAL_MS;
 * a timer when embedded) that syncs every tracked calendar not read for an interval, of
 * organizations holding `scheduling.availability_sync`. Each sync is its own action run.
 * Idempotent: a sync applies the server's changes since the stored state (sync token or ctag),
 * upserting busy rows by event URL, so a repeated or overlapping run changes nothing twice.
 */
import type { Disposer } from '../../../kernel/disposer';
import type { JobContext, JobProcessor } from '../../../kernel/job-queue';
import type { Logger } from '../../../kernel/logger';
import type { BullmqJobQueue } from '../../../platform/queue/bullmq-queue';
import { scheduleRepeatingJob } from '../../../platform/queue/repeating-job';
import type { AvailabilitySync } from '../domain/availability-sync';
import { SYNC_INTERVAL_MS } from '../domain/tracked-calendar';

export const AVAILABILITY_SYNC_QUEUE = 'availability-sync';

export class AvailabilitySyncProcessor implements JobProcessor<Record<string, never>> {
  readonly queue = AVAILABILITY_SYNC_QUEUE;

  constructor(private readonly sync: AvailabilitySync) {}

  async process(_job: JobContext<Record<string, never>>): Promise<{ synced: number; failed: number }> {
    const outcomes = await this.sync.syncDue();
    return { synced: outcomes.filter((o) => o.status === 'succeeded').length, failed: outcomes.filter((o) => o.status === 'failed').length };
  }
}

export function scheduleAvailabilitySync(processor: JobProcessor, bullmq: BullmqJobQueue | undefined, logger: Logger): Promise<Disposer> {
  return scheduleRepeatingJob(
    { processor, schedulerId: AVAILABILITY_SYNC_QUEUE, jobName: 'sync', intervalMs: SYNC_INTERVAL_MS, label: 'the availability sync' },
    bullmq,
    logger,
  );
}
