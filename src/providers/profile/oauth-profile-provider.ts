/**
 * The profile provider over HTTP: the profile API with a bearer token, and the OAuth 2.0
 * token endpoint for the refresh_token grant. Used for a provider configured by env and,
 * with the sandbox's endpoints, for the built-in sandbox. Every request has a deadline.
 * 401 → ProviderAuthorizationError (refresh and retry); 5xx, timeouts and network errors
 * → upstream 503 (retry later); other answers we cannot use → upstream 502.
 */
import { PROFILE_PROVIDER_TIMEOUT_DEFAULT_MS } from './provider-endpoints';
import { ProviderAuthorizationError, type ProfileProvider } from '../../domain/profiles/profile-provider';
import type { ProviderProfile, ProviderTokens } from '../../domain/profiles/provider-profile';
import { upstream } from '../../domain/shared/errors';
import type { ProviderEndpoints } from './provider-endpoints';
import { parseProviderProfile } from './profile-response';
import { keepAliveFetch, type HttpAnswer, type HttpInit } from '../http/keep-alive-fetch';

const unavailable = (what: string) => upstream('provider_unavailable', `The profile provider is unavailable (${what}); try again shortly`);
const badAnswer = (what: string) => upstream('provider_error', `The profile provider gave an unusable answer (${what})`, { status: 502 });

export class OAuthProfileProvider implements ProfileProvider {
  constructor(private readonly endpoints: ProviderEndpoints) {}

  async fetchProfile(accessToken: string): Promise<ProviderProfile> {
    const response = await this.call('profile', this.endpoints.profileUrl, {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    });
    if (response.status === 401) throw new ProviderAuthorizationError('The profile provider rejected the access token');
    const body = await this.json(response, 'profile');
    const profile = parseProviderProfile(body);
    if (!profile) throw badAnswer('profile does not have the expected shape');
    return profile;
  }

  async refresh(refreshToken: string): Promise<ProviderTokens> {
    const response = await this.call('token', this.endpoints.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: this.endpoints.clientId,
        client_secret: this.endpoints.clientSecret,
      }).toString(),
    });
    if (response.status === 400 || response.status === 401) {
      const body = (await response.json().catch(() => ({}))) as { error?: string };
      if (body.error === 'invalid_grant' || response.status === 401) throw new ProviderAuthorizationError('The profile provider refused the refresh token');
      throw badAnswer(`token endpoint answered ${response.status} ${body.error ?? ''}`.trim());
    }
    const body = (await this.json(response, 'token')) as { access_token?: unknown; refresh_token?: unknown; expires_in?: unknown };
    if (typeof body.access_token !== 'string' || body.access_token.length === 0) throw badAnswer('no access_token in the refresh answer');
    return {
      accessToken: body.access_token,
      refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : undefined,
      expiresAt: typeof body.expires_in === 'number' ? new Date(Date.now() + body.expires_in * 1000) : undefined,
    };
  }

  private async call(what: string, url: string, init: HttpInit): Promise<HttpAnswer> {
    let response: HttpAnswer;
    try {
      response = await keepAliveFetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(this.endpoints.timeoutMs ?? PROFILE_PROVIDER_TIMEOUT_DEFAULT_MS) });
    } catch (error) {
      const name = (error as Error).name;
      throw unavailable(name === 'TimeoutError' || name === 'AbortError' ? `${what} request timed out` : `${what} request failed`);
    }
    if (response.status >= 500 || response.status === 429) {
      await response.body?.cancel();
      throw unavailable(`${what} endpoint answered ${response.status}`);
    }
    return response;
  }

  private async json(response: HttpAnswer, what: string): Promise<unknown> {
    if (!response.ok) {
      await response.body?.cancel();
      throw badAnswer(`${what} endpoint answered ${response.status}`);
    }
    try {
      return await response.json();
    } catch {
      throw badAnswer(`${what} answer is not JSON`);
    }
  }
}
