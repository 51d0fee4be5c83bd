/** CalDAV failures as stable codes: the connection test's outcome, and DomainErrors for steps. */
import { DomainError } from '../../kernel/errors';
import { refusedAtConnect } from '../../features/connections/domain/connection-destinations';
import { isDestinationRefused } from '../../platform/network/pinned-network';

export interface CaldavFailure {
  code:
    | 'connection_auth_failed'
    | 'connection_unreachable'
    | 'connection_tls_failed'
    | 'connection_protocol_error'
    | 'counterpart_unavailable'
    | 'calendar_not_found'
    | 'destination_not_allowed';
  message: string;
  retryable: boolean;
}

export class CaldavHttpError extends Error {
  constructor(
    readonly status: number,
    what: string,
  ) {
    super(`${what} answered ${status}`);
  }
}

/** The account answers, but the calendar asked for is not among its calendars (removed, or unshared). */
export class CaldavCalendarMissing extends Error {}

export function classifyCaldavError(error: unknown): CaldavFailure {
  if (isDestinationRefused(error)) return { code: 'destination_not_allowed', message: refusedAtConnect(error), retryable: false };
  if (error instanceof CaldavCalendarMissing) return { code: 'calendar_not_found', message: error.message, retryable: false };
  if (error instanceof CaldavHttpError) {
    if (error.status === 401 || error.status === 403) return { code: 'connection_auth_failed', message: error.message, retryable: false };
    if (error.status >= 500 || error.status === 429) return { code: 'counterpart_unavailable', message: error.message, retryable: true };
    return { code: 'connection_protocol_error', message: error.message, retryable: false };
  }
  if (/invalid credentials|401/i.test((error as Error).message ?? ''))
    return { code: 'connection_auth_failed', message: 'the CalDAV server refused the credentials', retryable: false };
  const cause = (error as { cause?: { code?: string } }).cause;
  const code = cause?.code ?? '';
  if (/CERT|SSL|TLS|SELF_SIGNED/i.test(code)) return { code: 'connection_tls_failed', message: `TLS failed: ${code}`, retryable: false };
  if (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET|EHOSTUNREACH|UND_ERR/i.test(code) || (error as Error).name === 'TimeoutError') {
    return { code: 'connection_unreachable', message: `the CalDAV server did not answer (${code || 'timeout'})`, retryable: true };
  }
  // tsdav throws plain errors for answers it cannot read (not a CalDAV server, garbage XML).
  return {
    code: 'connection_protocol_error',
    message: `the CalDAV server's answer could not be read: ${(error as Error).message}`.slice(0, 300),
    retryable: false,
  };
}

/** The failure as a DomainError for a step: retried when it may pass, final otherwise. */
export function caldavFailure(error: unknown): DomainError {
  const failure = classifyCaldavError(error);
  return new DomainError(failure.retryable ? 'upstream' : 'conflict', failure.code, failure.message);
}
