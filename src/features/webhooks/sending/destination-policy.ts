/**
 * Checks a webhook URL when an endpoint is created or changed: absolute http(s) URL
 * without credentials; https, or http outside production or for a host on
 * WEBHOOK_HTTP_ALLOWED_HOSTS; every address the host resolves to must be public unless
 * the host is on WEBHOOK_ALLOWED_INTERNAL_HOSTS. The sender checks the addresses again
 * at each delivery (a name may resolve elsewhere later: DNS rebinding).
 */
import type { DestinationPolicy } from '../domain/ports';
import { invalid } from '../../../kernel/errors';
import { checkHost, hostOf } from '../../../platform/network/address-policy';

export interface DestinationRules {
  production: boolean;
  allowedInternalHosts: readonly string[];
  httpAllowedHosts: readonly string[];
}

export class ResolvingDestinationPolicy implements DestinationPolicy {
  constructor(private readonly rules: DestinationRules) {}

  async check(raw: string): Promise<void> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw invalid('parameter_invalid', 'url must be an absolute URL', 'url');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid('parameter_invalid', 'url must be an https URL', 'url');
    if (url.username || url.password) throw invalid('parameter_invalid', 'url must not carry credentials', 'url');
    if (raw.length > 2048) throw invalid('parameter_invalid', 'url must be at most 2048 characters', 'url');
    const host = hostOf(url);
    if (url.protocol === 'http:' && this.rules.production && !this.rules.httpAllowedHosts.includes(host)) {
      throw invalid('url_not_https', 'url must use https (plain http only for hosts on WEBHOOK_HTTP_ALLOWED_HOSTS)', 'url');
    }
    const verdict = await checkHost(host, this.rules.allowedInternalHosts);
    if (verdict === 'unresolvable') throw invalid('url_unresolvable', `The host ${host} does not resolve`, 'url');
    if (verdict === 'not_public') {
      throw invalid(
        'url_not_allowed',
        `The host ${host} resolves to a loopback, private, link-local or reserved address; an operator can allow it with WEBHOOK_ALLOWED_INTERNAL_HOSTS`,
        'url',
      );
    }
  }
}
