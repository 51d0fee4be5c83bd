/**
 * Availability errors: the database or Redis could not be reached (refused, reset, timed
 * out, shutting down). They are not bugs: a request answers 503 `service_unavailable` with
 * `Retry-After`, and a job leaves its work for a later try or the reconciliation sweep
 * instead of recording a final failure.
 */
import { DomainError } from './errors';

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED']);
/** PostgreSQL SQLSTATEs of a server going away or refusing connections. */
const POSTGRES_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '53300', '58000', '58030']);
/** Not anchored: knex puts the failed statement before the driver's message ("update … - Connection terminated unexpectedly"). */
const MESSAGES = [
  /\bConnection terminated\b/i, // pg: server closed the connection
  /timeout exceeded when trying to connect/i, // pg
  /Client was closed and is not queryable/i, // pg
  /Timeout acquiring a connection/i, // knex pool
  /^Connection is closed/i, // ioredis
  /enableOfflineQueue options is false/i, // ioredis, fail-fast connection while away
  /^Command timed out/i, // ioredis commandTimeout
  /Reached the max retries per request limit/i, // ioredis MaxRetriesPerRequestError
  /Client has encountered a connection error and is not queryable/i, // pg
  /the database system is (starting up|shutting down|in recovery mode)/i,
];

export function isAvailabilityError(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  const e = error as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || POSTGRES_UNAVAILABLE.has(e.code) || e.code.startsWith('08'))) return true;
  if (e.name === 'KnexTimeoutError' || e.name === 'MaxRetriesPerRequestError') return true;
  if (typeof e.message === 'string' && MESSAGES.some((pattern) => pattern.test(e.message as string))) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isAvailabilityError(inner, depth + 1))) return true;
  return isAvailabilityError(e.cause, depth + 1);
}

export const RETRY_AFTER_SECONDS = 5;

export const serviceUnavailable = () =>
  new DomainError('upstream', 'service_unavailable', 'The service is briefly unavailable (a dependency could not be reached); retry shortly', {
    retryAfterSeconds: RETRY_AFTER_SECONDS,
  });
