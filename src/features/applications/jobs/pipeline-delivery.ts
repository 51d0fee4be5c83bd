/**
 * Queue `pipeline-delivery`: hands a submitted application to the host's pipeline and
 * publishes `application.submitted` on the hook bus.
 *
 * Idempotent: the job id is `deliver-<application id>`; the pipeline port ignores an
 * application id it already has; `delivered_at` is set after both steps and checked
 * first, so a finished delivery is never repeated. A crash between the pipeline and the
 * mark repeats only the event (at-least-once, with the same application_id to dedupe on).
 */
import { inject, injectable } from 'tsyringe';
import { PIPELINE_DELIVERY_QUEUE, type PipelineDeliveryJob } from '../domain/pipeline-delivery-message';
import { PipelineDelivery } from '../domain/pipeline-delivery';
import { UnrecoverableJobError, type JobContext, type JobProcessor } from '../../../kernel/job-queue';
import { hasPrefix } from '../../../kernel/ids';

@injectable()
export class PipelineDeliveryProcessor implements JobProcessor<PipelineDeliveryJob> {
  readonly queue = PIPELINE_DELIVERY_QUEUE;

  constructor(@inject(PipelineDelivery) private readonly delivery: PipelineDelivery) {}

  async process(job: JobContext<PipelineDeliveryJob>): Promise<{ delivered: boolean }> {
    if (!hasPrefix(job.data.application_id, 'app')) throw new UnrecoverableJobError('pipeline-delivery job without an application id');
    return { delivered: await this.delivery.deliver(job.data.application_id) };
  }
}
