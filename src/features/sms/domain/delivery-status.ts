/**
 * Where an SMS is after the counterpart accepted it, as its delivery status callbacks
 * (Twilio) and receipts (SMPP deliver_sm) tell. Callbacks may arrive out of order (Twilio
 * says so): a status never moves back to an earlier stage, and a final one stays.
 */
export type SmsDeliveryStatus = 'queued' | 'sent' | 'delivered' | 'undelivered' | 'failed';

const STAGE: Record<SmsDeliveryStatus, number> = { queued: 0, sent: 1, delivered: 2, undelivered: 2, failed: 2 };

export const isFinalDeliveryStatus = (status: SmsDeliveryStatus): boolean => STAGE[status] === 2;

/** Whether `next` may replace `current` (undefined: nothing known yet). */
export function advancesDelivery(current: string | undefined, next: SmsDeliveryStatus): boolean {
  const known = current !== undefined && current in STAGE ? STAGE[current as SmsDeliveryStatus] : -1;
  return STAGE[next] > known;
}

/** Twilio's MessageStatus values (https://www.twilio.com/docs/messaging/api/message-resource#message-status-values). */
export function fromTwilioStatus(value: string): SmsDeliveryStatus | undefined {
  switch (value) {
    case 'accepted':
    case 'scheduled':
    case 'queued':
      return 'queued';
    case 'sending':
    case 'sent':
      return 'sent';
    case 'delivered':
    case 'read':
      return 'delivered';
    case 'undelivered':
      return 'undelivered';
    case 'failed':
    case 'canceled':
      return 'failed';
    default:
      return undefined;
  }
}

/** SMPP 3.4 Appendix B receipt `stat:` values. */
export function fromSmppReceiptStat(value: string): SmsDeliveryStatus | undefined {
  switch (value.toUpperCase()) {
    case 'ENROUTE':
    case 'ACCEPTD':
      return 'sent';
    case 'DELIVRD':
      return 'delivered';
    case 'EXPIRED':
    case 'UNDELIV':
    case 'DELETED':
      return 'undelivered';
    case 'REJECTD':
      return 'failed';
    default:
      return undefined;
  }
}

/** What a callback or receipt says about one message the counterpart accepted. */
export interface SmsDeliveryUpdate {
  /** Null for a deployment default connection (runs are then found by connector and reference alone). */
  organizationId: string | null;
  connector: string;
  /** The counterpart's reference the run holds: the Message SID, the SMPP message_id. */
  reference: string;
  status: SmsDeliveryStatus;
  /** The counterpart's own error code (Twilio ErrorCode, SMPP receipt `err:`), when it named one. */
  errorCode: string | null;
  at: Date;
}

/** The run an update was recorded on, as it now stands. */
export interface RecordedDelivery {
  organizationId: string;
  runId: string;
  status: SmsDeliveryStatus;
  errorCode: string | null;
}

export interface SmsDeliveryRepository {
  /** Records the status on the run holding the reference unless it would move it back; undefined when no run holds it or nothing changed. */
  record(update: SmsDeliveryUpdate): Promise<RecordedDelivery | undefined>;
}

export const SMS_DELIVERY_REPOSITORY = Symbol('SmsDeliveryRepository');
