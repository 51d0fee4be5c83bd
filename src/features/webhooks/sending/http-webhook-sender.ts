/**
 * Sends one webhook over node:http(s). The connection's DNS lookup goes through a guard
 * that refuses non-public addresses (unless the host is allowed), so what is checked is
 * exactly what is connected to: a name that resolved to a public address at creation and
 * now resolves to 127.0.0.1 or 169.254.169.254 (DNS rebinding) is refused at delivery.
 * Redirects are not followed. The deadline covers connect, send and the whole answer.
 */
import http from 'node:http';
import https from 'node:https';
import ipaddr from 'ipaddr.js';
import { WebhookSendError, type OutgoingWebhook, type WebhookResponse, type WebhookSender } from '../domain/ports';
import { guardedLookup, hostOf, isPublicAddress } from '../../../platform/network/address-policy';

/** What a URL comes to, the same on every delivery to it: parsed and checked once (a few per endpoint). */
interface Target {
  client: typeof http | typeof https;
  options: http.RequestOptions;
  /** Set for an address literal that is not public (names are checked by the lookup, at each connection). */
  refused?: string;
}

export class HttpWebhookSender implements WebhookSender {
  private readonly httpAgent = new http.Agent({ keepAlive: true, maxSockets: 50 });
  private readonly httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 50 });
  private readonly targets = new Map<string, Target>();

  constructor(private readonly allowedInternalHosts: readonly string[]) {}

  private target(raw: string): Target {
    let target = this.targets.get(raw);
    if (target) return target;
    const url = new URL(raw);
    const host = hostOf(url);
    const allowInternal = this.allowedInternalHosts.includes(host);
    const secure = url.protocol === 'https:';
    target = {
      client: secure ? https : http,
      options: {
        protocol: url.protocol,
        hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        agent: secure ? this.httpsAgent : this.httpAgent,
        lookup: guardedLookup(allowInternal, (message) => new WebhookSendError('destination_refused', message)),
      },
      ...(!allowInternal && ipaddr.isValid(host) && !isPublicAddress(host) ? { refused: `${host} is not a public address` } : {}),
    };
    // Bounded: URLs change with endpoints, the process lives on.
    if (this.targets.size > 10_000) this.targets.clear();
    this.targets.set(raw, target);
    return target;
  }

  send(webhook: OutgoingWebhook): Promise<WebhookResponse> {
    const { client, options, refused } = this.target(webhook.url);
    if (refused) return Promise.reject(new WebhookSendError('destination_refused', refused));
    return new Promise<WebhookResponse>((resolve, reject) => {
      let settled = false;
      const finish = (error: Error | undefined, response?: WebhookResponse) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (error) reject(error);
        else resolve(response!);
      };
      const request = client.request({ ...options, headers: { ...webhook.headers, 'content-length': String(Buffer.byteLength(webhook.body)) } }, (response) => {
        // Read (and drop) the answer so the connection can be reused; the status is what counts.
        response.on('data', () => undefined);
        response.on('end', () => {
          const retryAfterSeconds = parseRetryAfter(response.headers['retry-after'], Date.now());
          finish(undefined, { status: response.statusCode ?? 0, ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}) });
        });
        response.on('error', (error) => finish(new WebhookSendError('network', error.message)));
      });
      const timer = setTimeout(() => {
        finish(new WebhookSendError('timeout', `no answer within ${webhook.timeoutMs} ms`));
        request.destroy();
      }, webhook.timeoutMs);
      request.on('error', (error) => finish(error instanceof WebhookSendError ? error : new WebhookSendError('network', error.message)));
      request.end(webhook.body);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

/** `Retry-After` as delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - nowMs) / 1000));
}
