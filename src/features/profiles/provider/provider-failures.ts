/**
 * What can go wrong with the profile provider, each with its own code, logged once where
 * it is known (with the provider's `error`/`error_description` or HTTP status, never a
 * token or secret) and marked so the HTTP error handler does not log it again:
 *   provider_unavailable (503)      unreachable, timing out, 5xx/429: retry later
 *   provider_client_rejected (502)  the provider refused our client: the operator's configuration
 *   provider_error (502)            an answer we cannot use, naming the field
 *   ProviderAuthorizationError      the candidate's token or grant is gone (→ profile_not_authorized)
 */
import { ProviderAuthorizationError } from '../domain/profile-provider';
import { markLogged, upstream, type DomainError } from '../../../kernel/errors';
import type { Logger } from '../../../kernel/logger';

/** The provider's error fields, cut short: they are free text from another server. */
export interface ProviderErrorAnswer {
  error?: string;
  error_description?: string;
}

export function providerErrorFields(body: unknown): ProviderErrorAnswer {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const cut = (v: unknown) => (typeof v === 'string' ? v.slice(0, 300) : undefined);
  return { error: cut(b.error), error_description: cut(b.error_description) };
}

export class ProviderFailures {
  constructor(private readonly logger: Logger) {}

  unavailable(step: string, why: { status?: number; reason?: string }): DomainError {
    this.logger.warn({ provider: { step, status: why.status, reason: why.reason } }, `profile provider unavailable at ${step}`);
    const what = why.status ? `${step} endpoint answered ${why.status}` : `${step} request ${why.reason ?? 'failed'}`;
    return markLogged(upstream('provider_unavailable', `The profile provider is unavailable (${what}); try again shortly`));
  }

  clientRejected(step: string, status: number, answer: ProviderErrorAnswer): DomainError {
    this.logger.error(
      { provider: { step, status, error: answer.error, error_description: answer.error_description } },
      `profile provider refused our client at ${step} (${answer.error ?? status}): check PROFILE_PROVIDER_CLIENT_ID, PROFILE_PROVIDER_CLIENT_SECRET and PROFILE_PROVIDER_TOKEN_AUTH_METHOD against the client registered at the provider`,
    );
    return markLogged(
      upstream(
        'provider_client_rejected',
        'The profile provider refused this service’s client credentials; the operator needs to fix the provider configuration',
        { status: 502 },
      ),
    );
  }

  unusable(step: string, problem: string, extra: { status?: number } & ProviderErrorAnswer = {}): DomainError {
    this.logger.warn({ provider: { step, problem, ...extra } }, `profile provider gave an unusable answer at ${step}: ${problem}`);
    return markLogged(upstream('provider_error', `The profile provider gave an unusable answer (${problem})`, { status: 502 }));
  }

  authorizationGone(step: string, status: number, answer: ProviderErrorAnswer): ProviderAuthorizationError {
    this.logger.info(
      { provider: { step, status, error: answer.error, error_description: answer.error_description } },
      `profile provider no longer accepts the candidate's authorization at ${step}`,
    );
    return new ProviderAuthorizationError(`The profile provider refused the candidate's authorization at ${step} (${answer.error ?? status})`, answer.error);
  }
}
