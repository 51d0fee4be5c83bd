/**
 * SMPP command_status values (SMPP 3.4 §5.1.3) as stable codes: a refused bind is
 * `connection_auth_failed`; throttling, a full queue or a system error retry; other
 * refusals of a submit_sm are permanent.
 */
import * as smpp from 'smpp';
import { DomainError, upstream } from '../../kernel/errors';
import { refusedAtConnect } from '../../features/connections/domain/connection-destinations';
import { isDestinationRefused } from '../../platform/network/pinned-network';

export interface ClassifiedSmppError {
  code: string;
  message: string;
  transient: boolean;
}

const hex = (status: number) => `0x${status.toString(16).padStart(8, '0')}`;

export function classifyBindStatus(status: number): ClassifiedSmppError {
  if (status === smpp.ESME_RINVPASWD || status === smpp.ESME_RINVSYSID || status === smpp.ESME_RBINDFAIL)
    return { code: 'connection_auth_failed', message: `The SMSC refused the bind (command_status ${hex(status)})`, transient: false };
  return { code: 'connection_protocol_error', message: `The SMSC answered the bind with command_status ${hex(status)}`, transient: true };
}

export function classifySubmitStatus(status: number): ClassifiedSmppError {
  const message = `The SMSC refused submit_sm (command_status ${hex(status)})`;
  if (status === smpp.ESME_RTHROTTLED || status === smpp.ESME_RMSGQFUL || status === smpp.ESME_RSYSERR || status === smpp.ESME_RX_T_APPN)
    return { code: 'counterpart_unavailable', message, transient: true };
  if (status === smpp.ESME_RINVDSTADR) return { code: 'recipient_invalid', message, transient: false };
  return { code: 'message_rejected', message, transient: false };
}

export function classifySocketError(error: unknown): ClassifiedSmppError {
  if (isDestinationRefused(error)) return { code: 'destination_not_allowed', message: refusedAtConnect(error), transient: false };
  const e = error as { code?: string; message?: string };
  const detail = String(e?.message ?? error).slice(0, 300);
  if (/certificate|self[- ]signed|altname|ssl/i.test(detail))
    return { code: 'connection_tls_failed', message: `TLS with the SMSC failed: ${detail}`, transient: false };
  return { code: 'connection_unreachable', message: `The SMSC could not be reached: ${detail}`, transient: true };
}

export function smppFailure(c: ClassifiedSmppError): DomainError {
  return c.transient ? upstream(c.code, c.message) : new DomainError('conflict', c.code, c.message);
}

export class SmppError extends Error {
  constructor(readonly classified: ClassifiedSmppError) {
    super(classified.message);
  }
}
