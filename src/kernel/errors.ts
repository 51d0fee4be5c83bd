/**
 * The one typed error set. The domain throws these; platform/http/errors.ts maps each kind to a
 * status in one place, and job processors treat every kind but `upstream` as final.
 */
export type ErrorKind =
  | 'invalid' // 400
  | 'unauthenticated' // 401
  | 'payment_required' // 402
  | 'forbidden' // 403
  | 'not_found' // 404
  | 'conflict' // 409
  | 'gone' // 410
  | 'too_large' // 413
  | 'unsupported_media_type' // 415
  | 'rate_limited' // 429
  | 'upstream'; // 502/503: a provider or dependency failed; safe to retry

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly details: { param?: string; retryAfterSeconds?: number; [key: string]: unknown } = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const invalid = (code: string, message: string, param?: string) => new DomainError('invalid', code, message, param === undefined ? {} : { param });

export const notFound = (resource: string, id?: string) =>
  new DomainError('not_found', 'resource_missing', id ? `No such ${resource}: '${id}'` : `No such ${resource}`);

export const conflict = (code: string, message: string, details: Record<string, unknown> = {}) => new DomainError('conflict', code, message, details);

export const forbidden = (code: string, message: string) => new DomainError('forbidden', code, message);

export const unauthenticated = (code: string, message: string) => new DomainError('unauthenticated', code, message);

export const upstream = (code: string, message: string, details: Record<string, unknown> = {}) => new DomainError('upstream', code, message, details);

export const isDomainError = (error: unknown): error is DomainError => error instanceof DomainError;

const LOGGED = Symbol('logged');

/** Marks an error whose cause was already logged where it was known, so nobody logs it twice. */
export function markLogged<E extends Error>(error: E): E {
  Object.defineProperty(error, LOGGED, { value: true });
  return error;
}

export const wasLogged = (error: unknown): boolean => Boolean(error && typeof error === 'object' && (error as Record<symbol, unknown>)[LOGGED]);
