/**
 * The profile provider over HTTP: the profile API with a bearer token (its answer read
 * through the configured mapping), and the OAuth 2.0 token endpoint for the code exchange
 * and refresh. Used for a provider configured by env (endpoints given or discovered) and,
 * with the sandbox's endpoints, for the built-in sandbox. Every request has a deadline;
 * every failure is logged once, where it is understood (provider-failures.ts).
 */
import { type ProfileProvider } from '../domain/profile-provider';
import type { ProviderProfile, ProviderTokens } from '../domain/provider-profile';
import type { Logger } from '../../../kernel/logger';
import { PROFILE_PROVIDER_TIMEOUT_DEFAULT_MS, type ProviderEndpoints, type ResolvedEndpoints } from './provider-endpoints';
import { ProviderDirectory } from './provider-discovery';
import { providerErrorFields, ProviderFailures } from './provider-failures';
import { jsonBody, requestProvider } from './provider-request';
import type { HttpAnswer } from '../../../platform/http-client/keep-alive-fetch';
import { parseProviderProfile } from './profile-response';
import { TokenClient } from './token-client';

export class OAuthProfileProvider implements ProfileProvider {
  private readonly failures: ProviderFailures;
  private readonly directory: ProviderDirectory;
  private readonly tokens: TokenClient;

  constructor(
    readonly settings: ProviderEndpoints,
    logger: Logger,
  ) {
    this.failures = new ProviderFailures(logger);
    this.directory = new ProviderDirectory(settings, this.failures);
    this.tokens = new TokenClient(settings, this.directory, this.failures);
  }

  /** The endpoints, discovered on first use when an issuer is configured. */
  endpoints(): Promise<ResolvedEndpoints> {
    return this.directory.endpoints();
  }

  async fetchProfile(accessToken: string): Promise<ProviderProfile> {
    const step = 'profile';
    const { profileUrl } = await this.directory.endpoints();
    const response = await requestProvider(
      this.failures,
      step,
      profileUrl,
      { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' } },
      this.settings.timeoutMs ?? PROFILE_PROVIDER_TIMEOUT_DEFAULT_MS,
    );
    const body = await jsonBody(response);
    if (response.status === 401) throw this.failures.authorizationGone(step, 401, providerErrorFields(body ?? bearerError(response)));
    if (!response.ok)
      throw this.failures.unusable(step, `profile endpoint answered ${response.status}`, { status: response.status, ...providerErrorFields(body) });
    if (body === undefined) throw this.failures.unusable(step, 'profile answer is not JSON');
    const parsed = parseProviderProfile(body, this.settings.profileMapping, providerIdentity(this.settings));
    if ('problem' in parsed) throw this.failures.unusable(step, `profile field ${parsed.problem}`);
    return parsed.profile;
  }

  exchangeCode(input: { code: string; redirectUri: string; codeVerifier?: string }): Promise<ProviderTokens> {
    return this.tokens.exchangeCode(input);
  }

  refresh(refreshToken: string): Promise<ProviderTokens> {
    return this.tokens.refresh(refreshToken);
  }
}

/** Who the provider is, for deriving candidates' ids: its issuer, else its authorize endpoint's origin (stable across path changes). */
function providerIdentity(settings: ProviderEndpoints): string {
  return settings.issuer ?? (settings.authorizeUrl ? new URL(settings.authorizeUrl).origin : '');
}

/** RFC 6750 §3: a resource server says why in WWW-Authenticate. */
function bearerError(response: HttpAnswer): { error?: string } {
  const header = response.headers.get('www-authenticate') ?? '';
  return { error: /error="([^"]{1,100})"/.exec(header)?.[1] };
}
