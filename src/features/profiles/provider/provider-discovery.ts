/**
 * The provider's endpoints: configured, or read from its OpenID Connect discovery document
 * (`<issuer>/.well-known/openid-configuration`) the first time they are needed. A
 * successful read is kept for the life of the process; a failed one is tried again on the
 * next need, so a provider that is down at start does not keep the plugin from starting.
 */
import { PROFILE_PROVIDER_TIMEOUT_DEFAULT_MS, type ProviderEndpoints, type ResolvedEndpoints } from './provider-endpoints';
import type { ProviderFailures } from './provider-failures';
import { jsonBody, requestProvider } from './provider-request';

export class ProviderDirectory {
  private resolved: ResolvedEndpoints | undefined;
  private pending: Promise<ResolvedEndpoints> | undefined;

  constructor(
    private readonly settings: ProviderEndpoints,
    private readonly failures: ProviderFailures,
  ) {
    const { authorizeUrl, tokenUrl, profileUrl } = settings;
    if (!settings.issuer && authorizeUrl && tokenUrl && profileUrl) this.resolved = { authorizeUrl, tokenUrl, profileUrl };
  }

  async endpoints(): Promise<ResolvedEndpoints> {
    if (this.resolved) return this.resolved;
    this.pending ??= this.discover().finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async discover(): Promise<ResolvedEndpoints> {
    const issuer = this.settings.issuer!;
    const step = 'discovery';
    const response = await requestProvider(
      this.failures,
      step,
      `${issuer}/.well-known/openid-configuration`,
      { headers: { accept: 'application/json' } },
      this.settings.timeoutMs ?? PROFILE_PROVIDER_TIMEOUT_DEFAULT_MS,
    );
    const body = (await jsonBody(response)) as Record<string, unknown> | undefined;
    if (!response.ok || !body || typeof body !== 'object')
      throw this.failures.unusable(step, `discovery document answered ${response.status}${body ? '' : ', not JSON'}`, { status: response.status });
    // RFC 8414 §3.3: the document must name the issuer it was fetched for.
    if (body.issuer !== issuer && body.issuer !== `${issuer}/`)
      throw this.failures.unusable(step, `discovery document field issuer is "${String(body.issuer).slice(0, 200)}", not ${issuer}`);
    const endpoint = (field: string, configured: string | undefined): string => {
      if (configured) return configured;
      const value = body[field];
      if (typeof value !== 'string' || !/^https?:\/\//.test(value)) throw this.failures.unusable(step, `discovery document has no usable ${field}`);
      return value;
    };
    const methods = body.token_endpoint_auth_methods_supported;
    if (Array.isArray(methods) && !methods.includes(this.settings.tokenAuthMethod)) {
      throw this.failures.unusable(
        step,
        `the provider supports token endpoint auth methods ${methods.join(', ')}, not ${this.settings.tokenAuthMethod} (PROFILE_PROVIDER_TOKEN_AUTH_METHOD)`,
      );
    }
    const revocation = body.revocation_endpoint;
    this.resolved = {
      authorizeUrl: endpoint('authorization_endpoint', this.settings.authorizeUrl),
      tokenUrl: endpoint('token_endpoint', this.settings.tokenUrl),
      profileUrl: endpoint('userinfo_endpoint', this.settings.profileUrl),
      // Optional (RFC 8414 §2): erasure revokes tokens where the provider offers it.
      ...(typeof revocation === 'string' && /^https?:\/\//.test(revocation) && { revocationUrl: revocation }),
    };
    return this.resolved;
  }
}
