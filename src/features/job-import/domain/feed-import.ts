/**
 * job_import.import_jobs, one import: fetch the feed with the validators of the last import
 * (conditional GET: an unchanged feed costs one 304), read it as a stream, upsert each job as
 * a listing by its external id (the feed's `referencenumber`) through the host's listings,
 * and close the listings a former import of the same feed created that the feed no longer
 * carries. A job that cannot become a listing is reported with its position and reason; the
 * rest of the feed still imports. A feed that cannot be read at all closes nothing.
 */
import type { ListingsManager } from '../../listings/domain/listing-management';
import { readJsonFeed } from './json-feed-reader';
import { FeedSyntaxError, readXmlFeed, type FeedJob } from './xml-feed-reader';

/** The two formats job-feeds publishes: the aggregators' XML (`jobs.xml`) and our JSON (`jobs.json`). */
export type FeedFormat = 'xml' | 'json';

/** More jobs than any one organization's feed should carry; the rest is reported, not imported. */
export const MAX_FEED_JOBS = 50_000;
/** The report keeps the first errors; `error_count` counts them all. */
export const MAX_REPORTED_ERRORS = 100;
/** Upserts in flight at once: enough to hide the round trips, few enough to keep memory and the pool bounded. */
const CONCURRENCY = 8;

export interface Validators {
  etag?: string;
  lastModified?: string;
}

export type FeedResponse = { kind: 'not_modified' } | { kind: 'feed'; body: AsyncIterable<Uint8Array>; validators: Validators };

/** Thrown by a fetcher: the feed could not be fetched (`code`: feed_unreachable, feed_http_error, feed_too_large, …). */
export class FeedFetchError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface FeedFetcher {
  fetch(url: string, validators: Validators): Promise<FeedResponse>;
}

export interface ItemError {
  position: number;
  reference: string | null;
  code: string;
  message: string;
}

export type ImportOutcome =
  | { status: 'not_modified' }
  | { status: 'failed'; code: string; message: string }
  | {
      status: 'imported';
      validators: Validators;
      jobs: number;
      created: number;
      updated: number;
      closed: number;
      errorCount: number;
      errors: ItemError[];
      /** The external ids the feed now carries: the next import closes those it no longer does. */
      externalIds: string[];
    };

const EXTERNAL_ID = /^[\x21-\x7e]{1,255}$/;

/** The feed's HTML description as the listing's plain text: paragraphs as blank lines, breaks kept. */
export function descriptionText(html: string): string {
  return html
    .replace(/<\/p>\s*<p[^>]*>/gi, '\n\n')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6])>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(lt|gt|quot|#39|apos|nbsp|amp);/g, (_, e: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ', amp: '&' })[e]!)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

type Checked = { ok: true; externalId: string; title: string; description: string | null; location: string | null } | { ok: false; error: ItemError };

export function checkJob(job: FeedJob): Checked {
  const reference = job.referencenumber ?? null;
  const fail = (code: string, message: string): Checked => ({ ok: false, error: { position: job.position, reference, code, message } });
  if (!reference) return fail('reference_missing', 'the job has no <referencenumber>');
  if (!EXTERNAL_ID.test(reference) || reference === '.' || reference === '..')
    return fail('reference_invalid', '<referencenumber>: 1–255 printable ASCII characters without spaces');
  const title = job.title?.trim();
  if (!title) return fail('title_missing', 'the job has no <title>');
  if (title.length > 300) return fail('title_too_long', '<title> is longer than 300 characters');
  const description = job.description ? descriptionText(job.description) : '';
  if (description.length > 20_000) return fail('description_too_long', '<description> is longer than 20,000 characters as text');
  const location = [job.city, job.state, job.country].filter((part) => part?.trim()).join(', ');
  if (location.length > 300) return fail('location_too_long', 'the location is longer than 300 characters');
  return { ok: true, externalId: reference, title, description: description || null, location: location || null };
}

export class FeedImport {
  constructor(
    private readonly fetcher: FeedFetcher,
    private readonly listings: ListingsManager,
  ) {}

  /** `previous`: what the last import of this feed left (its validators and the external ids it carried). */
  async run(
    organizationId: string,
    url: string,
    previous: { validators: Validators; externalIds: readonly string[] },
    format: FeedFormat = 'xml',
  ): Promise<ImportOutcome> {
    let response: FeedResponse;
    try {
      response = await this.fetcher.fetch(url, previous.validators);
    } catch (error) {
      if (error instanceof FeedFetchError) return { status: 'failed', code: error.code, message: error.message };
      throw error;
    }
    if (response.kind === 'not_modified') return { status: 'not_modified' };

    const seen = new Set<string>();
    const errors: ItemError[] = [];
    let errorCount = 0;
    let created = 0;
    let updated = 0;
    let jobs = 0;
    const report = (error: ItemError) => {
      errorCount += 1;
      if (errors.length < MAX_REPORTED_ERRORS) errors.push(error);
    };
    const inFlight = new Set<Promise<void>>();
    const upsert = async (job: Extract<Checked, { ok: true }>, position: number) => {
      try {
        const result = await this.listings.upsertByExternalId(organizationId, job.externalId, {
          title: job.title,
          description: job.description,
          location: job.location,
          status: 'open',
        });
        if (result.created) created += 1;
        else updated += 1;
      } catch (error) {
        report({ position, reference: job.externalId, code: 'listing_rejected', message: (error as Error).message.slice(0, 300) });
      }
    };
    try {
      for await (const job of (format === 'json' ? readJsonFeed : readXmlFeed)(response.body)) {
        jobs += 1;
        if (jobs > MAX_FEED_JOBS) {
          report({
            position: job.position,
            reference: job.referencenumber ?? null,
            code: 'feed_too_long',
            message: `only the first ${MAX_FEED_JOBS} jobs are imported`,
          });
          continue;
        }
        const checked = checkJob(job);
        if (!checked.ok) {
          report(checked.error);
          // Still in the feed, if unusable now: its listing stays as it was rather than being closed.
          if (job.referencenumber && EXTERNAL_ID.test(job.referencenumber)) seen.add(job.referencenumber);
          continue;
        }
        if (seen.has(checked.externalId)) {
          report({
            position: job.position,
            reference: checked.externalId,
            code: 'reference_duplicate',
            message: 'an earlier job of the feed has this <referencenumber>',
          });
          continue;
        }
        seen.add(checked.externalId);
        const pending = upsert(checked, job.position).finally(() => inFlight.delete(pending));
        inFlight.add(pending);
        if (inFlight.size >= CONCURRENCY) await Promise.race(inFlight);
      }
    } catch (error) {
      await Promise.all(inFlight);
      // Jobs read before the feed broke are imported; nothing is closed on a feed read only in part.
      if (error instanceof FeedSyntaxError) return { status: 'failed', code: 'feed_malformed', message: error.message };
      if (error instanceof FeedFetchError) return { status: 'failed', code: error.code, message: error.message };
      throw error;
    }
    await Promise.all(inFlight);

    let closed = 0;
    for (const externalId of previous.externalIds) {
      if (seen.has(externalId)) continue;
      const listing = (await this.listings.list(organizationId, { limit: 1, externalId })).data[0];
      if (listing && listing.status === 'open') {
        await this.listings.update(organizationId, listing.id, { status: 'closed' });
        closed += 1;
      }
    }
    return { status: 'imported', validators: response.validators, jobs, created, updated, closed, errorCount, errors, externalIds: [...seen] };
  }
}
