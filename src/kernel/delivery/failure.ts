/**
 * What a failed attempt means for the delivery: transient (try again) or permanent (fail
 * now), with a stable code. Our DomainErrors say it by kind (`upstream` is transient); a
 * host-supplied connector says `permanent: true` and its own code; anything else is a
 * transient `connector_error` (a network error, a crash in the counterpart's client).
 */
import { isDomainError } from '../errors';

export interface FailureVerdict {
  transient: boolean;
  code: string;
  message: string;
  /** The counterpart's `Retry-After`, when it named one. */
  retryAfterSeconds?: number;
}

const STABLE_CODE = /^[a-z][a-z0-9_]{0,62}$/;

export function classifyFailure(error: unknown, fallbackCode = 'connector_error'): FailureVerdict {
  if (isDomainError(error)) {
    const retryAfter = Number(error.details.retryAfterSeconds);
    return {
      transient: error.kind === 'upstream',
      code: error.code,
      message: error.message,
      ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {}),
    };
  }
  const foreign = (error ?? {}) as { permanent?: unknown; code?: unknown; message?: unknown };
  return {
    transient: foreign.permanent !== true,
    code: typeof foreign.code === 'string' && STABLE_CODE.test(foreign.code) ? foreign.code : fallbackCode,
    message: typeof foreign.message === 'string' ? foreign.message.slice(0, 300) : 'The connector failed',
  };
}
