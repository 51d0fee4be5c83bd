/**
 * A document fetcher that remembers what it fetched for a short while: the compliance sweep
 * verifies many held credentials of the same issuers again, and each issuer's DID document
 * and status list need fetching once per sweep, not once per credential. Failures are not
 * remembered (the next credential asks again). Bounded: the oldest entry goes first.
 */
import type { DocumentFetcher } from './document-fetcher';

const MAX_ENTRIES = 1000;

export class CachingDocumentFetcher implements DocumentFetcher {
  private readonly entries = new Map<string, { at: number; body: Promise<string> }>();

  constructor(
    private readonly inner: DocumentFetcher,
    private readonly ttlMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  text(url: string): Promise<string> {
    const now = this.clock();
    const cached = this.entries.get(url);
    if (cached && now - cached.at < this.ttlMs) return cached.body;
    const body = this.inner.text(url);
    this.entries.delete(url);
    this.entries.set(url, { at: now, body });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    body.catch(() => {
      if (this.entries.get(url)?.body === body) this.entries.delete(url);
    });
    return body;
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
