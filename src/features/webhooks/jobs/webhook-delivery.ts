/**
 * Queue `webhook-delivery`: one attempt of one webhook delivery (an event for an
 * endpoint), signed per Standard Webhooks, then the outcome recorded; a retry writes the
 * next attempt's job (delayed per the retry schedule) through the outbox, in the same
 * transaction as the outcome.
 *
 * Idempotent: the job id is `webhook-<delivery id>-<job_seq>` and the delivery row names
 * its one live job number; a job whose number is not the row's (superseded by a retry, a
 * replay or the sweep) or whose delivery is already finished does nothing, and the outcome
 * is written only where the row still names this job. A crash mid-request may send the
 * same delivery again: receivers dedupe on `webhook-id`, the event id, the same on every try.
 */
import { inject, injectable } from 'tsyringe';
import { UnrecoverableJobError, type JobContext, type JobProcessor } from '../../../kernel/job-queue';
import { hasPrefix } from '../../../kernel/ids';
import { WEBHOOK_DELIVERY_QUEUE, type DeliveryJobData } from '../domain/webhook-delivery';
import { WebhookDeliveryService } from '../domain/webhook-delivery-service';

@injectable()
export class WebhookDeliveryProcessor implements JobProcessor<DeliveryJobData> {
  readonly queue = WEBHOOK_DELIVERY_QUEUE;

  constructor(@inject(WebhookDeliveryService) private readonly deliveries: WebhookDeliveryService) {}

  async process(job: JobContext<DeliveryJobData>): Promise<{ outcome: string }> {
    if (!hasPrefix(job.data.deliveryId, 'whd') || !Number.isInteger(job.data.jobSeq))
      throw new UnrecoverableJobError('webhook-delivery job without a delivery id');
    const outcome = await this.deliveries.attempt(job.data.deliveryId, job.data.jobSeq);
    return { outcome: outcome?.kind ?? 'stale' };
  }
}
