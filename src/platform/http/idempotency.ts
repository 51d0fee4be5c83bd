/**
 * Stripe-style `Idempotency-Key` for POST routes that declare `idempotent: true`: the
 * same key and body replay the first response; the same key with another body, or
 * while the first request still runs, answers 409. Keys are scoped to the caller and
 * kept for 24 hours. Failed requests release their key so a retry can run.
 *
 * Surviving failure: a request holds its key by a short lease it renews by heartbeat while
 * it runs, so a key whose request died (process killed, database gone) is free again within
 * seconds, at once in the process that held it; the 409 `idempotency_key_in_use` carries
 * `Retry-After`. What a request creates is recorded on its key in
 * the same transaction as the creation (`effect`), so a retry after a lost answer replays
 * the creation instead of running again. Secrets are never stored: `api_key` fields are
 * replaced by null in a stored response.
 */
import { createHash } from 'node:crypto';
import { DomainError } from '../../kernel/errors';

export interface StoredResponse {
  status: number;
  body: unknown;
}

export type BeginResult =
  | { state: 'started' }
  | { state: 'replay'; response: StoredResponse }
  | { state: 'mismatch' }
  /** Another live attempt holds the key; its lease lapses within `retryAfterSeconds` unless renewed. */
  | { state: 'in_progress'; retryAfterSeconds: number }
  /** The first attempt created `effectId` but its answer was lost: replay the creation. */
  | { state: 'effect'; effectId: string };

export interface IdempotencyStore {
  begin(scope: string, key: string, requestHash: string): Promise<BeginResult>;
  /** Runs a started request's work: renews its lease meanwhile, and lets a repository record the effect beside its write. */
  hold<T>(scope: string, key: string, work: () => Promise<T>): Promise<T>;
  complete(scope: string, key: string, response: StoredResponse): Promise<void>;
  release(scope: string, key: string): Promise<void>;
  /** Deletes keys older than the retention; returns how many. */
  prune(now?: Date): Promise<number>;
}

/** Fields that carry a secret shown once; a stored replay never contains them. */
const SECRET_FIELDS = new Set(['api_key']);

export function withoutSecrets(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(withoutSecrets);
  if (body && typeof body === 'object') {
    return Object.fromEntries(
      Object.entries(body).map(([field, value]) => [field, SECRET_FIELDS.has(field) && typeof value === 'string' ? null : withoutSecrets(value)]),
    );
  }
  return body;
}

export const IDEMPOTENCY_STORE = Symbol('IdempotencyStore');
export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export function parseIdempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (!KEY_PATTERN.test(header)) {
    throw new DomainError('invalid', 'invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 printable ASCII characters', {
      param: 'Idempotency-Key',
    });
  }
  return header;
}

/** Key order does not change a body's meaning, so it does not change its hash. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

export function requestHash(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([method, path, canonical(body ?? null)]))
    .digest('hex');
}

export const idempotencyErrors = {
  mismatch: () =>
    new DomainError('conflict', 'idempotency_key_reused', 'This Idempotency-Key was used with a different request; use a new key', {
      param: 'Idempotency-Key',
    }),
  inProgress: (retryAfterSeconds = 1) =>
    new DomainError('conflict', 'idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed; retry shortly', {
      param: 'Idempotency-Key',
      retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)),
    }),
};
