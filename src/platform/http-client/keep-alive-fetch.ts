/**
 * The HTTP client of the provider calls: node:http(s) on a kept-alive Agent per process,
 * the body buffered once and parsed once. It does what the provider client used `fetch`
 * for (status, JSON body, deadline, no redirects) at a fraction of the CPU: the profile of
 * the import job showed undici's fetch (WHATWG streams, Headers, per-request objects) as
 * the worker's largest JavaScript cost after the socket writes themselves.
 */
import http from 'node:http';
import https from 'node:https';

export interface HttpInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Only 'error' (the provider client never follows redirects). */
  redirect?: 'error';
  signal?: AbortSignal;
}

/** The part of a fetch Response the provider client reads. */
export interface HttpAnswer {
  status: number;
  ok: boolean;
  headers: { get(name: string): string | null };
  json(): Promise<unknown>;
  body: { cancel(): Promise<void> } | null;
}

/** Connections stay open between jobs: one TCP (and TLS) handshake per socket, not per request. */
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 64, scheduling: 'lifo' }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 64, scheduling: 'lifo' }),
};

const NO_BODY = { cancel: async () => undefined };

export function keepAliveFetch(url: string, init: HttpInit = {}): Promise<HttpAnswer> {
  const target = new URL(url);
  const protocol = target.protocol as keyof typeof agents;
  const transport = protocol === 'https:' ? https : protocol === 'http:' ? http : undefined;
  if (!transport) return Promise.reject(new TypeError(`unsupported protocol ${target.protocol}`));
  return new Promise<HttpAnswer>((resolve, reject) => {
    const headers: Record<string, string | number> = { ...init.headers };
    if (init.body !== undefined) headers['content-length'] = Buffer.byteLength(init.body);
    const request = transport.request(target, { method: init.method ?? 'GET', headers, agent: agents[protocol], signal: init.signal }, (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && init.redirect === 'error') {
        response.resume();
        reject(new TypeError(`redirect (${status}) refused`));
        return;
      }
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('error', reject);
      response.once('end', () => {
        const text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
        const header = (name: string) => {
          const value = response.headers[name.toLowerCase()];
          return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
        };
        resolve({ status, ok: status >= 200 && status < 300, headers: { get: header }, json: async () => JSON.parse(text), body: NO_BODY });
      });
    });
    request.once('error', (error: Error) => {
      // An aborted signal surfaces as AbortError; fetch reports a deadline as TimeoutError.
      if (init.signal?.aborted) {
        const reason = init.signal.reason as Error | undefined;
        reject(reason instanceof Error ? reason : error);
      } else reject(error);
    });
    request.end(init.body);
  });
}
