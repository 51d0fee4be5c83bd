/**
 * SMS over SMPP 3.4 (the `smpp` package): submit_sm on a bound transceiver session,
 * asking for a delivery receipt. A message counts as sent when the SMSC answered
 * submit_sm_resp with command_status 0; its message_id is the run's reference, the id
 * the delivery receipt (deliver_sm) later names. GSM-7 text goes as the SMSC default
 * alphabet, anything else as UCS-2; a text longer than one segment travels whole in the
 * message_payload TLV and the SMSC segments it.
 */
import type { ConnectorNetwork } from '../../features/connections/domain/connection-destinations';
import * as smpp from 'smpp';
import type { OpenContext } from '../../features/connections/domain/connector-definition';
import type { Delivery, SmsConnector, SmsMessage } from '../../features/hooks/domain/connectors';
import { segmentSms } from '../../features/sms/domain/sms-segments';
import type { SmppCredentials, SmppSettings } from './settings';
import { classifySubmitStatus, smppFailure, SmppError } from './smpp-errors';
import { readDeliverSm } from './smpp-deliver-sm';
import { SmppSession, type DeliverSmListener } from './smpp-session';

/**
 * Hands what the SMSC delivers on the session to the SMS feature: receipts update the run
 * that holds the message_id, an organization's inbound STOP opts the sender out. Receipts
 * arrive on the session that is kept bound between messages.
 */
export function receiptsTo(context: OpenContext): DeliverSmListener | undefined {
  const sink = context.sms;
  if (!sink) return undefined;
  return (pdu) => {
    const read = readDeliverSm(pdu);
    const at = new Date();
    if (read.kind === 'receipt')
      return sink.deliveryUpdated({
        organizationId: context.organizationId,
        connector: 'smpp',
        reference: read.messageId,
        status: read.status,
        errorCode: read.errorCode,
        at,
      });
    // A deployment default serves every organization: an inbound STOP cannot be told apart, it is acknowledged only.
    if (read.kind === 'message' && context.organizationId)
      return sink.received({ organizationId: context.organizationId, connector: 'smpp', from: read.from, text: read.text, at }).then(() => undefined);
    return Promise.resolve();
  };
}

/** SMPP TON/NPI for an E.164 number (international, ISDN) or an alphanumeric sender. */
function address(value: string): { addr: string; ton: number; npi: number } {
  if (/^\+\d+$/.test(value)) return { addr: value.slice(1), ton: 1, npi: 1 };
  if (/^\d+$/.test(value)) return { addr: value, ton: 0, npi: 1 };
  return { addr: value, ton: 5, npi: 0 };
}

export class SmppSmsConnector implements SmsConnector {
  readonly session: SmppSession;

  constructor(
    private readonly settings: SmppSettings,
    credentials: SmppCredentials,
    onDeliverSm?: DeliverSmListener,
    network?: ConnectorNetwork,
  ) {
    this.session = new SmppSession(settings, credentials, onDeliverSm, network);
  }

  async sendSms(m: SmsMessage): Promise<Delivery> {
    const segmentation = segmentSms(m.text);
    const source = address(this.settings.source_addr);
    const destination = address(m.to);
    const body = segmentation.segments > 1 ? { message_payload: m.text } : { short_message: m.text };
    let pdu: smpp.PDU;
    try {
      pdu = await this.session.request('submit_sm', {
        source_addr: source.addr,
        source_addr_ton: source.ton,
        source_addr_npi: source.npi,
        destination_addr: destination.addr,
        dest_addr_ton: destination.ton,
        dest_addr_npi: destination.npi,
        registered_delivery: 1,
        data_coding: segmentation.encoding === 'UCS-2' ? smpp.ENCODING.UCS2 : smpp.ENCODING.SMSC_DEFAULT,
        ...body,
      });
    } catch (error) {
      if (error instanceof SmppError) throw smppFailure(error.classified);
      throw error;
    }
    if (pdu.command_status !== smpp.ESME_ROK) throw smppFailure(classifySubmitStatus(pdu.command_status));
    const messageId = typeof pdu.message_id === 'string' ? pdu.message_id.trim() : '';
    if (!messageId) throw smppFailure({ code: 'connection_protocol_error', message: 'submit_sm_resp carried no message_id', transient: true });
    return {
      deliveryId: messageId,
      reference: messageId,
      livemode: true,
      details: { encoding: segmentation.encoding, segments: segmentation.segments, delivery_status: 'queued' },
    };
  }

  close(): void {
    this.session.close();
  }
}
