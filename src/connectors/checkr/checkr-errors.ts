/**
 * Checkr's answers as stable codes: 401/403 is a refused key, 404 an object Checkr does not know,
 * 400/422 a request Checkr refused (final); 429 and 5xx retry; a network failure is transient.
 */
import { refusedAtConnect } from '../../features/connections/domain/connection-destinations';
import { isDestinationRefused } from '../../platform/network/pinned-network';
import { DomainError, upstream } from '../../kernel/errors';

export interface ClassifiedCheckrError {
  code: string;
  message: string;
  transient: boolean;
  retryAfterSeconds?: number;
}

export function classifyCheckrAnswer(status: number, body: unknown, retryAfter: string | null): ClassifiedCheckrError {
  const error = body && typeof body === 'object' ? (body as { error?: unknown }).error : undefined;
  const detail = `Checkr answered ${status}: ${(Array.isArray(error) ? error.join('; ') : String(error ?? '')).slice(0, 300)}`;
  if (status === 429) {
    const seconds = Number(retryAfter);
    return { code: 'rate_limited', message: detail, transient: true, ...(Number.isFinite(seconds) && seconds >= 0 ? { retryAfterSeconds: seconds } : {}) };
  }
  if (status >= 500) return { code: 'counterpart_unavailable', message: detail, transient: true };
  if (status === 401 || status === 403) return { code: 'connection_auth_failed', message: detail, transient: false };
  if (status === 404) return { code: 'counterpart_not_found', message: detail, transient: false };
  return { code: 'counterpart_rejected', message: detail, transient: false };
}

export function classifyCheckrNetworkError(error: unknown): ClassifiedCheckrError {
  if (isDestinationRefused(error)) return { code: 'destination_not_allowed', message: refusedAtConnect(error), transient: false };
  const e = error as { message?: string; cause?: { message?: string } };
  const detail = String(e?.cause?.message ?? e?.message ?? error).slice(0, 300);
  return /certificate|self[- ]signed|altname/i.test(detail)
    ? { code: 'connection_tls_failed', message: `TLS with the Checkr API failed: ${detail}`, transient: false }
    : { code: 'connection_unreachable', message: `The Checkr API could not be reached: ${detail}`, transient: true };
}

/** The error a step throws: `upstream` retries (with Retry-After when Checkr named one), `conflict` is final. */
export function checkrFailure(c: ClassifiedCheckrError): DomainError {
  return c.transient
    ? upstream(c.code, c.message, c.retryAfterSeconds !== undefined ? { retryAfterSeconds: c.retryAfterSeconds } : {})
    : new DomainError('conflict', c.code, c.message);
}

export const protocolError = (what: string) =>
  checkrFailure({ code: 'connection_protocol_error', message: `Checkr answered without ${what}`, transient: true });
