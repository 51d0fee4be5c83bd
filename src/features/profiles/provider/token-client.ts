/**
 * The token endpoint (RFC 6749 §4.1.3 code exchange, §6 refresh), with the client
 * authentication the provider expects: `client_secret_basic` (the default; id and secret
 * form-urlencoded, then Basic, per §2.3.1) or `client_secret_post`. Its answers sort into
 * ProviderFailures: invalid_grant → the authorization is gone; invalid_client or
 * unauthorized_client → our client is refused (the operator's business); 5xx, 429,
 * timeouts → unavailable; anything else we cannot use names what is wrong.
 */
import type { ProviderTokens } from '../domain/provider-profile';
import { PROFILE_PROVIDER_TIMEOUT_DEFAULT_MS, type ProviderEndpoints } from './provider-endpoints';
import type { ProviderDirectory } from './provider-discovery';
import { providerErrorFields, type ProviderFailures } from './provider-failures';
import { jsonBody, requestProvider } from './provider-request';

const CLIENT_REFUSALS = ['invalid_client', 'unauthorized_client'];

export class TokenClient {
  constructor(
    private readonly settings: ProviderEndpoints,
    private readonly directory: ProviderDirectory,
    private readonly failures: ProviderFailures,
  ) {}

  exchangeCode(input: { code: string; redirectUri: string; codeVerifier?: string }): Promise<ProviderTokens> {
    const form: Record<string, string> = { grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri };
    if (input.codeVerifier) form.code_verifier = input.codeVerifier;
    return this.request('code exchange', form);
  }

  refresh(refreshToken: string): Promise<ProviderTokens> {
    return this.request('refresh', { grant_type: 'refresh_token', refresh_token: refreshToken });
  }

  private async request(step: string, form: Record<string, string>): Promise<ProviderTokens> {
    const { tokenUrl } = await this.directory.endpoints();
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    const body = new URLSearchParams(form);
    if (this.settings.tokenAuthMethod === 'client_secret_post') {
      body.set('client_id', this.settings.clientId);
      body.set('client_secret', this.settings.clientSecret);
    } else {
      const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
      headers.authorization = `Basic ${Buffer.from(`${encode(this.settings.clientId)}:${encode(this.settings.clientSecret)}`).toString('base64')}`;
    }
    const response = await requestProvider(
      this.failures,
      step,
      tokenUrl,
      { method: 'POST', headers, body: body.toString() },
      this.settings.timeoutMs ?? PROFILE_PROVIDER_TIMEOUT_DEFAULT_MS,
    );
    const answer = await jsonBody(response);
    if (!response.ok) {
      const fields = providerErrorFields(answer);
      if (fields.error === 'invalid_grant') throw this.failures.authorizationGone(step, response.status, fields);
      if (response.status === 401 || CLIENT_REFUSALS.includes(fields.error ?? '')) throw this.failures.clientRejected(step, response.status, fields);
      throw this.failures.unusable(step, `token endpoint answered ${response.status}${fields.error ? ` ${fields.error}` : ''}`, {
        status: response.status,
        ...fields,
      });
    }
    if (!answer || typeof answer !== 'object') throw this.failures.unusable(step, 'token answer is not JSON');
    const tokens = answer as { access_token?: unknown; token_type?: unknown; refresh_token?: unknown; expires_in?: unknown };
    if (typeof tokens.access_token !== 'string' || tokens.access_token.length === 0) throw this.failures.unusable(step, 'token answer has no access_token');
    // RFC 6749 §5.1: token_type is case-insensitive; we only know how to use bearer tokens.
    if (typeof tokens.token_type === 'string' && tokens.token_type.toLowerCase() !== 'bearer') {
      throw this.failures.unusable(step, `token answer field token_type is "${tokens.token_type.slice(0, 40)}", not Bearer`);
    }
    const expiresIn = typeof tokens.expires_in === 'string' ? Number(tokens.expires_in) : tokens.expires_in;
    return {
      accessToken: tokens.access_token,
      refreshToken: typeof tokens.refresh_token === 'string' && tokens.refresh_token.length > 0 ? tokens.refresh_token : undefined,
      expiresAt: typeof expiresIn === 'number' && Number.isFinite(expiresIn) && expiresIn > 0 ? new Date(Date.now() + expiresIn * 1000) : undefined,
    };
  }
}
