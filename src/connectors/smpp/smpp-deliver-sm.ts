/**
 * What an SMSC's deliver_sm carries (SMPP 3.4 §4.6.1): a delivery receipt (esm_class
 * message type 0x04; the text in the Appendix B format `id:… stat:DELIVRD err:000 …`, or
 * the receipted_message_id / message_state TLVs) or a mobile-originated message (a reply,
 * STOP). Anything else is ignored.
 */
import type * as smpp from 'smpp';
import { fromSmppReceiptStat, type SmsDeliveryStatus } from '../../features/sms/domain/delivery-status';

export type DeliverSm =
  | { kind: 'receipt'; messageId: string; status: SmsDeliveryStatus; errorCode: string | null }
  | { kind: 'message'; from: string; text: string }
  | { kind: 'other' };

/** message_state TLV values (§5.3.2.35). */
const MESSAGE_STATE: Record<number, string> = { 1: 'ENROUTE', 2: 'DELIVRD', 3: 'EXPIRED', 4: 'DELETED', 5: 'UNDELIV', 6: 'ACCEPTD', 8: 'REJECTD' };

function textOf(pdu: smpp.PDU): string {
  const payload = (pdu.message_payload ?? pdu.short_message) as unknown;
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) return payload.toString('latin1');
  const message = (payload as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : Buffer.isBuffer(message) ? message.toString('latin1') : '';
}

export function readDeliverSm(pdu: smpp.PDU): DeliverSm {
  const esmClass = Number(pdu.esm_class ?? 0);
  const text = textOf(pdu);
  if ((esmClass & 0x3c) === 0x04) {
    const fields = Object.fromEntries([...text.matchAll(/(id|stat|err):(\S*)/gi)].map((m) => [m[1]!.toLowerCase(), m[2]!]));
    const tlvId = typeof pdu.receipted_message_id === 'string' ? pdu.receipted_message_id : undefined;
    const tlvState = typeof pdu.message_state === 'number' ? MESSAGE_STATE[pdu.message_state] : undefined;
    const messageId = (tlvId ?? fields.id ?? '').trim();
    const status = fromSmppReceiptStat(tlvState ?? fields.stat ?? '');
    if (!messageId || !status) return { kind: 'other' };
    const err = fields.err && /^\d{1,3}$/.test(fields.err) && Number(fields.err) !== 0 ? fields.err : null;
    return { kind: 'receipt', messageId: messageId.slice(0, 65), status, errorCode: err };
  }
  if ((esmClass & 0x3c) !== 0) return { kind: 'other' };
  const source = String(pdu.source_addr ?? '');
  if (!/^\+?\d{5,15}$/.test(source)) return { kind: 'other' };
  return { kind: 'message', from: source.startsWith('+') ? source : `+${source}`, text };
}
