/**
 * The three feed documents of an organization's open listings: the XML job feed in the
 * format the large aggregators ingest (Indeed's `<source><publisher/><job>…</job></source>`,
 * also read by Adzuna, Jooble, Talent.com…; XSD in schemas/job-feed.xsd), a JSON feed of the
 * same jobs with their JobPosting, and a sitemap of the listing pages. Pure.
 */
import type { Listing } from '../../listings/domain/listing';
import { descriptionHtml, listingUrl, postedAt, toJobPosting, type JobPosting } from './job-posting';
import { escapeHtml } from '../../../kernel/html-escape';

export interface FeedInput {
  organizationId: string;
  organizationName: string;
  /** JOB_FEEDS_LISTING_URL. */
  listingUrlTemplate: string;
  /** Open listings only, newest first. */
  listings: readonly Listing[];
  now: Date;
  /** Who publishes the feed (the `<publisher>`): the plugin's name. */
  publisher: string;
  /** The plugin's own public URL of the feed (`<publisherurl>`). */
  feedUrl: string;
  /** Where a job links to, when not the listing page itself: a distribution channel's tracked apply link. */
  jobUrl?: (listingId: string) => string;
}

const urlOf = (input: FeedInput, listingId: string) =>
  input.jobUrl ? input.jobUrl(listingId) : listingUrl(input.listingUrlTemplate, input.organizationId, listingId);

// XML 1.0 has no place for most control characters: they are dropped, not escaped.
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
/** The kernel's escaper serves XML too (its five entities are XML's); only the characters XML forbids go first. */
export const xmlText = (text: string): string => escapeHtml(text.replace(NOT_XML, ''));

/** Aggregators date jobs in RFC 1123 form ("Tue, 24 Nov 2026 10:00:00 GMT"). */
const rfc1123 = (date: Date) => date.toUTCString();

const element = (name: string, value: string) => `<${name}>${xmlText(value)}</${name}>`;

export function xmlFeed(input: FeedInput): string {
  const jobs = input.listings.map((listing) => {
    const parts = [
      element('title', listing.title),
      element('date', rfc1123(postedAt(listing, input.now))),
      element('referencenumber', listing.externalId ?? listing.id),
      element('url', urlOf(input, listing.id)),
      element('company', input.organizationName),
      ...(listing.location?.trim() ? [element('city', listing.location.trim())] : []),
      element('description', descriptionHtml(listing)),
    ];
    return `  <job>\n    ${parts.join('\n    ')}\n  </job>\n`;
  });
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<source>\n' +
    `  ${element('publisher', input.publisher)}\n  ${element('publisherurl', input.feedUrl)}\n` +
    jobs.join('') +
    '</source>\n'
  );
}

export interface JsonFeedJob {
  id: string;
  reference_number: string;
  title: string;
  url: string;
  location: string | null;
  date_posted: string;
  job_posting: JobPosting;
}

export function jsonFeed(input: FeedInput): { object: 'job_feed'; organization: { id: string; name: string }; data: JsonFeedJob[] } {
  return {
    object: 'job_feed',
    organization: { id: input.organizationId, name: input.organizationName },
    data: input.listings.map((listing) => {
      const url = urlOf(input, listing.id);
      return {
        id: listing.id,
        reference_number: listing.externalId ?? listing.id,
        title: listing.title,
        url,
        location: listing.location?.trim() || null,
        date_posted: postedAt(listing, input.now).toISOString(),
        job_posting: toJobPosting(listing, { organizationName: input.organizationName, listingUrl: url, now: input.now }),
      };
    }),
  };
}

/** sitemaps.org 0.9: one <url> per open listing page, <lastmod> its last change. */
export function sitemap(input: FeedInput): string {
  const urls = input.listings.map((listing) => {
    const loc = listingUrl(input.listingUrlTemplate, input.organizationId, listing.id);
    const lastmod = (listing.updatedAt ?? postedAt(listing, input.now)).toISOString();
    return `  <url>${element('loc', loc)}${element('lastmod', lastmod)}</url>\n`;
  });
  return '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' + urls.join('') + '</urlset>\n';
}
