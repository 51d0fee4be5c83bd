/**
 * Fetches an import feed over HTTP: a conditional GET (If-None-Match, If-Modified-Since)
 * under the webhooks' destination policy (absolute http(s) URL without credentials, https in
 * production, every address public unless allowed), checked again at each redirect (at most
 * three) and inside each connection's own DNS lookup (DestinationFetch: a name that resolves
 * inward by then, DNS rebinding, is refused at connect); the body streamed, cut at
 * MAX_FEED_BYTES, the whole fetch bounded in time.
 */
import type { DestinationFetch, DestinationPolicy } from '../../webhooks/domain/ports';
import { isDestinationRefused } from '../../../platform/network/pinned-network';
import { DomainError } from '../../../kernel/errors';
import { FeedFetchError, type FeedFetcher, type FeedResponse, type Validators } from '../domain/feed-import';

export const MAX_FEED_BYTES = 200 * 1024 * 1024;
const MAX_REDIRECTS = 3;
const TIMEOUT_MS = 5 * 60_000;

export class HttpFeedFetcher implements FeedFetcher {
  constructor(
    private readonly policy: DestinationPolicy,
    private readonly userAgent: string,
    private readonly pinned: DestinationFetch,
  ) {}

  async fetch(url: string, validators: Validators): Promise<FeedResponse> {
    const signal = AbortSignal.timeout(TIMEOUT_MS);
    let target = url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
      try {
        await this.policy.check(target);
      } catch (error) {
        if (error instanceof DomainError) throw new FeedFetchError('feed_url_refused', error.message);
        throw error;
      }
      const headers: Record<string, string> = { accept: 'application/xml, application/json, text/xml;q=0.9', 'user-agent': this.userAgent };
      if (validators.etag) headers['if-none-match'] = validators.etag;
      if (validators.lastModified) headers['if-modified-since'] = validators.lastModified;
      let response: Response;
      try {
        response = await this.pinned.fetch(target, { headers, redirect: 'manual', signal });
      } catch (error) {
        if (isDestinationRefused(error))
          throw new FeedFetchError('feed_url_refused', `The feed's host is refused: ${String((error as { cause?: Error }).cause?.message ?? error)}`);
        throw new FeedFetchError('feed_unreachable', `The feed could not be fetched: ${(error as Error).message}`);
      }
      if (response.status === 304) return { kind: 'not_modified' };
      if ([301, 302, 303, 307, 308].includes(response.status) && response.headers.get('location')) {
        target = new URL(response.headers.get('location')!, target).toString();
        await response.body?.cancel();
        continue;
      }
      if (!response.ok || !response.body) {
        await response.body?.cancel();
        throw new FeedFetchError('feed_http_error', `The feed answered HTTP ${response.status}`);
      }
      return {
        kind: 'feed',
        body: bounded(response.body),
        validators: {
          ...(response.headers.get('etag') ? { etag: response.headers.get('etag')! } : {}),
          ...(response.headers.get('last-modified') ? { lastModified: response.headers.get('last-modified')! } : {}),
        },
      };
    }
    throw new FeedFetchError('feed_redirect_loop', `More than ${MAX_REDIRECTS} redirects`);
  }
}

async function* bounded(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  let bytes = 0;
  try {
    for await (const chunk of body) {
      bytes += chunk.byteLength;
      if (bytes > MAX_FEED_BYTES) throw new FeedFetchError('feed_too_large', `The feed is larger than ${MAX_FEED_BYTES} bytes`);
      yield chunk;
    }
  } catch (error) {
    if (error instanceof FeedFetchError) throw error;
    throw new FeedFetchError('feed_unreachable', `The feed stopped: ${(error as Error).message}`);
  }
}
