/**
 * What SMS counterparts tell us after a send, whatever the protocol: delivery status
 * (Twilio's status callbacks, SMPP delivery receipts) is recorded on the run that sent the
 * message and published as `sms.delivery_updated`; an inbound message (Twilio's inbound
 * webhook, SMPP mobile-originated deliver_sm) that is STOP or START opts its sender out or
 * back in for the organization. Connectors call this port; they never decide.
 */
import type { EventPublisher } from '../../../kernel/events';
import type { Logger } from '../../../kernel/logger';
import type { SmsDeliveryRepository, SmsDeliveryUpdate } from './delivery-status';
import { optOutIntent } from './opt-out-keywords';
import type { SmsOptOuts } from './sms-opt-outs';

export interface InboundSms {
  organizationId: string;
  connector: string;
  from: string;
  text: string;
  at: Date;
}

export interface SmsInboundSink {
  deliveryUpdated(update: SmsDeliveryUpdate & { recipient?: string }): Promise<void>;
  received(message: InboundSms): Promise<'opted_out' | 'opted_in' | 'ignored'>;
}

export const SMS_INBOUND = Symbol('SmsInbound');

/** Twilio's "Attempt to send to unsubscribed recipient": the carrier knows the number said STOP. */
const TWILIO_UNSUBSCRIBED = '21610';

export class SmsInbound implements SmsInboundSink {
  constructor(
    private readonly deliveries: SmsDeliveryRepository,
    private readonly optOuts: SmsOptOuts,
    private readonly events: EventPublisher,
    private readonly logger: Logger,
  ) {}

  async deliveryUpdated(update: SmsDeliveryUpdate & { recipient?: string }): Promise<void> {
    const recorded = await this.deliveries.record(update);
    if (update.errorCode === TWILIO_UNSUBSCRIBED && update.recipient) {
      const organizationId = update.organizationId ?? recorded?.organizationId;
      if (organizationId) await this.optOuts.stop(organizationId, update.recipient, 'STOP', `${update.connector}:21610`, update.at);
    }
    if (!recorded) return;
    await this.events
      .publish(
        'sms.delivery_updated',
        recorded.organizationId,
        { run_id: recorded.runId, connector: update.connector, reference: update.reference, delivery_status: recorded.status, error_code: recorded.errorCode },
        { dedupeKey: `sms.delivery_updated:${recorded.runId}:${recorded.status}` },
      )
      .catch((error: Error) => this.logger.warn({ runId: recorded.runId, err: error.message }, 'publishing sms.delivery_updated failed'));
  }

  async received(message: InboundSms): Promise<'opted_out' | 'opted_in' | 'ignored'> {
    const intent = optOutIntent(message.text);
    if (!intent) return 'ignored';
    if (intent.kind === 'stop') {
      await this.optOuts.stop(message.organizationId, message.from, intent.keyword, message.connector, message.at);
      return 'opted_out';
    }
    await this.optOuts.resume(message.organizationId, message.from);
    return 'opted_in';
  }
}
