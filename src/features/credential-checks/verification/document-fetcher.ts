/**
 * Fetches the documents a verification needs (did:web DID documents, status list
 * credentials): https only, no redirects, 5 s, 1 MiB, and only to public addresses (the
 * names a credential carries are the applicant's choice: no probing of the private network).
 * The check runs inside the connection's own DNS lookup (`network`, the pinned network), so
 * the address checked is the address connected to: a name that resolves inward when fetched
 * (DNS rebinding) is refused. Outside production a loopback host may answer over plain http,
 * so tests serve them from a local server and nothing reaches the network.
 */
import { isDestinationRefused } from '../../../platform/network/pinned-network';
export interface DocumentFetcher {
  json(url: string): Promise<unknown>;
  /** The body as text (a status list may be a VC-JWT). */
  text(url: string): Promise<string>;
}

const MAX_BYTES = 1 << 20;
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

export class HttpDocumentFetcher implements DocumentFetcher {
  /** `network`: the fetch that refuses non-public addresses at connect time (absent: the global fetch, unit tests). */
  constructor(private readonly options: { allowLoopbackHttp: boolean; timeoutMs?: number; network?: { fetch: typeof fetch } }) {}

  /** In test mode, an https URL of a loopback host is fetched over http (no certificate to make). */
  private target(url: string): URL {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error('not a URL');
    }
    if (parsed.username || parsed.password) throw new Error('URL with credentials');
    const loopback = LOOPBACK.test(parsed.hostname);
    if (loopback && this.options.allowLoopbackHttp) {
      parsed.protocol = 'http:';
      return parsed;
    }
    if (parsed.protocol !== 'https:') throw new Error('only https is fetched');
    if (loopback) throw new Error('loopback addresses are not fetched');
    return parsed;
  }

  async text(url: string): Promise<string> {
    const target = this.target(url);
    // The test-mode loopback allowance (plain http) is the only fetch outside the guard.
    const fetching = target.protocol === 'https:' && this.options.network ? this.options.network.fetch : fetch;
    let response: Response;
    try {
      response = await fetching(target, {
        redirect: 'error',
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 5000),
        headers: { accept: 'application/json, application/vc+jwt, application/did+json' },
      });
    } catch (error) {
      if (isDestinationRefused(error)) throw new Error('the issuer’s address is not public');
      throw error;
    }
    if (!response.ok) throw new Error(`answered ${response.status}`);
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > MAX_BYTES) throw new Error('document too large');
    const body = await response.arrayBuffer();
    if (body.byteLength > MAX_BYTES) throw new Error('document too large');
    return Buffer.from(body).toString('utf8');
  }

  async json(url: string): Promise<unknown> {
    const text = await this.text(url);
    try {
      return JSON.parse(text);
    } catch {
      throw new Error('not JSON');
    }
  }
}
