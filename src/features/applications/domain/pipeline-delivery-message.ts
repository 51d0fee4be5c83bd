import type { OutboxMessage } from '../../../kernel/outbox';

export const PIPELINE_DELIVERY_QUEUE = 'pipeline-delivery';

export interface PipelineDeliveryJob {
  application_id: string;
}

export function pipelineDeliveryMessage(applicationId: string): OutboxMessage {
  const data: PipelineDeliveryJob = { application_id: applicationId };
  return { queue: PIPELINE_DELIVERY_QUEUE, name: 'deliver', data, jobId: `deliver-${applicationId}` };
}
