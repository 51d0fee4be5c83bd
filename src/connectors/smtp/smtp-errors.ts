/**
 * Nodemailer's errors as stable codes: what a connection test answers and what an action
 * run records. Transient ones (the connection ended, a 4xx reply) are retried; permanent
 * ones (AUTH refused, a 5xx reply) fail the run at once, as RFC 5321's reply classes say.
 */
import { DomainError, upstream } from '../../kernel/errors';
import { isDestinationRefused } from '../../platform/network/pinned-network';
import { refusedAtConnect } from '../../features/connections/domain/connection-destinations';

interface NodemailerLikeError {
  code?: string;
  responseCode?: number;
  permanent?: boolean;
  message?: string;
  command?: string;
}

export interface ClassifiedSmtpError {
  code: string;
  message: string;
  transient: boolean;
}

const CERTIFICATE = /certificate|self[- ]signed|altname|unable to verify|wrong version number|ssl routines/i;
const UNREACHABLE = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENOTFOUND', 'EPROXY']);

export function classifySmtpError(error: unknown): ClassifiedSmtpError {
  const e = (error ?? {}) as NodemailerLikeError;
  const detail = String(e.message ?? error).slice(0, 300);
  if (isDestinationRefused(error)) return { code: 'destination_not_allowed', message: refusedAtConnect(error), transient: false };
  if (e.code === 'EAUTH' || e.code === 'ENOAUTH')
    return { code: 'connection_auth_failed', message: `The SMTP server refused the credentials: ${detail}`, transient: false };
  // nodemailer reports a refused certificate as ESOCKET; the TLS layer's message says what it was.
  if (e.code === 'ETLS' || e.code === 'EREQUIRETLS' || CERTIFICATE.test(detail))
    return { code: 'connection_tls_failed', message: `TLS with the SMTP server failed: ${detail}`, transient: false };
  if (e.code === 'EENVELOPE' && !e.responseCode)
    return { code: 'recipient_invalid', message: `The message has no valid recipient: ${detail}`, transient: false };
  if (typeof e.responseCode === 'number') {
    const permanent = e.permanent ?? (e.responseCode >= 500 && e.responseCode !== 503);
    const code = permanent ? (e.command === 'RCPT TO' ? 'recipient_rejected' : 'message_rejected') : 'counterpart_unavailable';
    return { code, message: `The SMTP server answered ${e.responseCode}: ${detail}`, transient: !permanent };
  }
  if (e.code && UNREACHABLE.has(e.code)) return { code: 'connection_unreachable', message: `The SMTP server could not be reached: ${detail}`, transient: true };
  return { code: 'connection_protocol_error', message: `The SMTP exchange failed: ${detail}`, transient: true };
}

/** The error an action step throws: `upstream` retries, `conflict` is final. */
export function smtpFailure(error: unknown): DomainError {
  const c = classifySmtpError(error);
  return c.transient ? upstream(c.code, c.message) : new DomainError('conflict', c.code, c.message);
}
