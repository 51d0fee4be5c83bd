/**
 * A listing as schema.org `JobPosting` JSON-LD, with the fields Google for Jobs requires
 * (title, description, datePosted, hiringOrganization, jobLocation or a remote job's
 * jobLocationType + applicantLocationRequirements) and those it recommends that we know
 * (validThrough, identifier, directApply, url). Pure: no I/O, the clock is passed in.
 */
import type { Listing } from '../../listings/domain/listing';
import { escapeHtml } from '../../../kernel/html-escape';

export interface PostingContext {
  organizationName: string;
  /** The listing's public page on the careers site, where candidates apply. */
  listingUrl: string;
  /** Feed generation time: validThrough rolls forward from the day it is read. */
  now: Date;
}

/** A listing stays valid this long past the day it is read: closing it removes it at once anyway. */
export const VALID_FOR_DAYS = 30;
const DAY_MS = 86_400_000;

export type JobPosting = Record<string, unknown> & { '@context': 'https://schema.org'; '@type': 'JobPosting' };

/** "Remote", "Remote - France", "France (remote)": a telecommute job, the rest names where applicants may live. */
const REMOTE = /\bremote\b/i;

function locationOf(location: string | null | undefined): Record<string, unknown> {
  const text = location?.trim();
  if (!text) return {};
  if (!REMOTE.test(text)) {
    return { jobLocation: { '@type': 'Place', address: { '@type': 'PostalAddress', addressLocality: text } } };
  }
  const region = text
    .replace(REMOTE, '')
    .replace(/[()[\]]/g, ' ')
    .replace(/^[\s,;:/|–-]+|[\s,;:/|–-]+$/g, '')
    .trim();
  return {
    jobLocationType: 'TELECOMMUTE',
    ...(region ? { applicantLocationRequirements: { '@type': 'Country', name: region } } : {}),
  };
}

/** Google wants HTML: the plain-text description escaped, blank lines as paragraphs, line breaks kept. */
export function descriptionHtml(listing: Pick<Listing, 'title' | 'description'>): string {
  const text = listing.description?.trim() || listing.title;
  return text
    .split(/\r?\n\s*\r?\n/)
    .map((paragraph) => `<p>${escapeHtml(paragraph.trim()).replace(/\r?\n/g, '<br>')}</p>`)
    .join('');
}

/** The day a listing was first posted (its creation; `now` when the host does not say). */
export const postedAt = (listing: Listing, now: Date): Date => listing.createdAt ?? listing.updatedAt ?? now;

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

export function toJobPosting(listing: Listing, context: PostingContext): JobPosting {
  const startOfToday = Math.floor(context.now.getTime() / DAY_MS) * DAY_MS;
  return {
    '@context': 'https://schema.org',
    '@type': 'JobPosting',
    title: listing.title,
    description: descriptionHtml(listing),
    datePosted: isoDay(postedAt(listing, context.now)),
    validThrough: new Date(startOfToday + VALID_FOR_DAYS * DAY_MS).toISOString(),
    hiringOrganization: { '@type': 'Organization', name: context.organizationName },
    identifier: { '@type': 'PropertyValue', name: context.organizationName, value: listing.externalId ?? listing.id },
    url: context.listingUrl,
    // Candidates apply on the listing's page itself (the profile apply widget), no further redirect.
    directApply: true,
    ...locationOf(listing.location),
  };
}

/** The listing page URL from the JOB_FEEDS_LISTING_URL template. */
export const listingUrl = (template: string, organizationId: string, listingId: string): string =>
  template.replaceAll('{organization_id}', encodeURIComponent(organizationId)).replaceAll('{listing_id}', encodeURIComponent(listingId));
