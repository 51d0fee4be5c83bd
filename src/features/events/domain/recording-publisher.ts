/**
 * The EventPublisher the domain uses: records the event in the durable event log (which
 * fans it out to webhook deliveries in the same transaction), then passes it to the host's
 * hook bus as before, so embedding hosts keep hearing every event. The log write comes
 * first and its failure is the caller's failure (a job retries); a failing bus listener is
 * the host's business and only logged.
 */
import type { EventPublisher, PublishOptions } from '../../../kernel/events';
import type { Logger } from '../../../kernel/logger';
import type { EventLog } from './event';

export class RecordingEventPublisher implements EventPublisher {
  constructor(
    private readonly log: EventLog,
    private readonly hostBus: EventPublisher,
    private readonly logger: Logger,
  ) {}

  async publish(type: string, organizationId: string, payload: object, options: PublishOptions = {}): Promise<void> {
    await this.log.record({ organizationId, type, data: payload, dedupeKey: options.dedupeKey });
    try {
      await this.hostBus.publish(type, organizationId, payload);
    } catch (error) {
      this.logger.warn({ event: type, organizationId, err: (error as Error).message }, 'the host hook bus refused an event');
    }
  }
}
