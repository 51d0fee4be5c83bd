/**
 * Queue `esign-expiry`: a repeating job (a BullMQ job scheduler every 15 minutes; a timer
 * when embedded) that expires the envelopes past their expiry and publishes
 * `offer.expired` / `agreement.expired`. One UPDATE … RETURNING decides which, so two runs at
 * once announce each envelope once (the events' dedupe keys name the envelope too): idempotent.
 */
import type { Disposer } from '../../../kernel/disposer';
import type { JobContext, JobProcessor } from '../../../kernel/job-queue';
import type { Logger } from '../../../kernel/logger';
import type { BullmqJobQueue } from '../../../platform/queue/bullmq-queue';
import { scheduleRepeatingJob } from '../../../platform/queue/repeating-job';
import type { Envelopes } from '../domain/envelopes';

export const ENVELOPE_EXPIRY_QUEUE = 'esign-expiry';
export const ENVELOPE_EXPIRY_INTERVAL_MS = 15 * 60_000;

export class EnvelopeExpiryProcessor implements JobProcessor<Record<string, never>> {
  readonly queue = ENVELOPE_EXPIRY_QUEUE;

  constructor(private readonly envelopes: Envelopes) {}

  async process(_job: JobContext<Record<string, never>>): Promise<{ expired: number }> {
    return this.envelopes.expireDue();
  }
}

export function scheduleEnvelopeExpiry(processor: EnvelopeExpiryProcessor, bullmq: BullmqJobQueue | undefined, logger: Logger): Promise<Disposer> {
  return scheduleRepeatingJob(
    { processor, schedulerId: ENVELOPE_EXPIRY_QUEUE, jobName: 'expire', intervalMs: ENVELOPE_EXPIRY_INTERVAL_MS, label: 'the e-signature expiry sweep' },
    bullmq,
    logger,
  );
}
