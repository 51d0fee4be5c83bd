/**
 * Twilio's answers as stable codes. A 4xx is permanent (Twilio's numeric error code says
 * why: https://www.twilio.com/docs/api/errors), except 429 and 20429 (too many requests),
 * which retry after the `Retry-After` Twilio named; a 5xx or a network failure is transient.
 */
import { refusedAtConnect } from '../../features/connections/domain/connection-destinations';
import { isDestinationRefused } from '../../platform/network/pinned-network';
import { DomainError, upstream } from '../../kernel/errors';

export interface ClassifiedTwilioError {
  code: string;
  message: string;
  transient: boolean;
  retryAfterSeconds?: number;
}

/** Twilio error codes we name; any other 4xx is `message_rejected`. */
const TWILIO_CODES: Record<number, string> = {
  20003: 'connection_auth_failed', // Authentication Error
  20005: 'connection_auth_failed', // Account not active
  20404: 'connection_auth_failed', // the account or resource does not exist for these credentials
  21211: 'recipient_invalid', // Invalid 'To' Phone Number
  21614: 'recipient_invalid', // 'To' number is not a valid mobile number
  21612: 'recipient_rejected', // cannot route to this number
  21408: 'recipient_rejected', // Permission to send to this region not enabled
  21610: 'recipient_opted_out', // Attempt to send to unsubscribed recipient (STOP)
  21606: 'sender_invalid', // 'From' is not a valid, SMS-capable number of this account
  21659: 'sender_invalid',
  21660: 'sender_invalid',
  21617: 'message_rejected', // body exceeds 1600 characters
};

export function classifyTwilioAnswer(status: number, body: unknown, retryAfter: string | null): ClassifiedTwilioError {
  const b = (body && typeof body === 'object' ? body : {}) as { code?: unknown; message?: unknown };
  const twilioCode = typeof b.code === 'number' ? b.code : undefined;
  const detail = `Twilio answered ${status}${twilioCode ? ` (error ${twilioCode})` : ''}: ${String(b.message ?? '').slice(0, 300)}`;
  if (status === 429 || twilioCode === 20429) {
    const seconds = Number(retryAfter);
    return { code: 'rate_limited', message: detail, transient: true, ...(Number.isFinite(seconds) && seconds >= 0 ? { retryAfterSeconds: seconds } : {}) };
  }
  if (status >= 500) return { code: 'counterpart_unavailable', message: detail, transient: true };
  if (status === 401 || status === 403) return { code: 'connection_auth_failed', message: detail, transient: false };
  return { code: (twilioCode !== undefined ? TWILIO_CODES[twilioCode] : undefined) ?? 'message_rejected', message: detail, transient: false };
}

export function classifyTwilioNetworkError(error: unknown): ClassifiedTwilioError {
  if (isDestinationRefused(error)) return { code: 'destination_not_allowed', message: refusedAtConnect(error), transient: false };
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  const detail = String(e?.cause?.message ?? e?.message ?? error).slice(0, 300);
  const certificate = /certificate|self[- ]signed|altname/i.test(detail);
  return certificate
    ? { code: 'connection_tls_failed', message: `TLS with the Twilio API failed: ${detail}`, transient: false }
    : { code: 'connection_unreachable', message: `The Twilio API could not be reached: ${detail}`, transient: true };
}

/** The error an action step throws: `upstream` retries (with Retry-After when Twilio named one), `conflict` is final. */
export function twilioFailure(c: ClassifiedTwilioError): DomainError {
  return c.transient
    ? upstream(c.code, c.message, c.retryAfterSeconds !== undefined ? { retryAfterSeconds: c.retryAfterSeconds } : {})
    : new DomainError('conflict', c.code, c.message);
}
