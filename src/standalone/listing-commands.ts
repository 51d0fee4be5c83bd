/**
 * The operator CLI's listing commands, one small function per command, independent of
 * the argument parser: each takes plain options (strings as typed on the command line)
 * and returns what to print, as text and as JSON (`--json`). The CLI calls them after
 * parsing; they do the same as the listings API (/v1/listings).
 */
import type { ListingQuestion } from '../domain/listings/listing';
import type { ListingFields } from '../domain/listings/listing-management';
import { questionsSchema } from '../domain/listings/questions';
import { notFound } from '../domain/shared/errors';
import { listingView } from '../http/routers/listings-router';
import { UsageError } from './args';
import type { ListingsStore } from './listings-store';

export interface CommandResult {
  text: string;
  value: object;
}

export interface ListingOptions {
  org: string;
  title?: string;
  questions?: string;
  description?: string;
  location?: string;
  status?: string;
  externalId?: string;
}

function questionsOf(raw: string | undefined): ListingQuestion[] | undefined {
  if (raw === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new UsageError('--questions must be a JSON array');
  }
  const parsed = questionsSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(`--questions: ${issue.path.join('.') || 'value'}: ${issue.message}`);
  }
  return parsed.data as ListingQuestion[];
}

function statusOf(raw: string | undefined): 'open' | 'closed' | undefined {
  if (raw === undefined) return undefined;
  if (raw !== 'open' && raw !== 'closed') throw new UsageError('--status must be open or closed');
  return raw;
}

function fieldsOf(options: ListingOptions): Partial<ListingFields> {
  const fields: Partial<ListingFields> = {};
  if (options.title !== undefined) {
    if (!options.title.trim()) throw new UsageError('--title must not be empty');
    fields.title = options.title.trim();
  }
  const questions = questionsOf(options.questions);
  if (questions) fields.questions = questions;
  if (options.description !== undefined) fields.description = options.description;
  if (options.location !== undefined) fields.location = options.location;
  const status = statusOf(options.status);
  if (status) fields.status = status;
  return fields;
}

const shown = (verb: string, listing: Parameters<typeof listingView>[0]): CommandResult => ({
  text: `listing ${listing.id} ${verb} (${listing.status}${listing.externalId ? `, external id ${listing.externalId}` : ''}): ${listing.title}`,
  value: listingView(listing),
});

export async function createListing(listings: ListingsStore, options: ListingOptions): Promise<CommandResult> {
  const fields = fieldsOf(options);
  if (!fields.title) throw new UsageError('--title is required');
  const listing = await listings.create(options.org, {
    ...fields,
    title: fields.title,
    questions: fields.questions ?? [],
    externalId: options.externalId ?? null,
  });
  return { text: `listing ${listing.id} created`, value: { listing_id: listing.id, listing: listingView(listing) } };
}

export async function getListing(listings: ListingsStore, options: { org: string; id: string }): Promise<CommandResult> {
  const listing = await listings.find(options.org, options.id);
  if (!listing) throw notFound('listing', options.id);
  return { text: JSON.stringify(listingView(listing), null, 2), value: listingView(listing) };
}

export async function listListings(
  listings: ListingsStore,
  options: { org: string; status?: string; externalId?: string; limit?: string; startingAfter?: string },
): Promise<CommandResult> {
  const limit = options.limit === undefined ? 100 : Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new UsageError('--limit must be 1..100');
  const page = await listings.list(options.org, {
    limit,
    status: statusOf(options.status),
    externalId: options.externalId,
    startingAfter: options.startingAfter,
  });
  return {
    text: page.data.map((l) => `${l.id}\t${l.status}\t${l.externalId ?? '-'}\t${l.title}`).join('\n') || 'no listings',
    value: { object: 'list', data: page.data.map(listingView), has_more: page.hasMore },
  };
}

export async function updateListing(listings: ListingsStore, options: ListingOptions & { id: string }): Promise<CommandResult> {
  const change = fieldsOf(options);
  if (options.externalId !== undefined) change.externalId = options.externalId;
  const listing = await listings.update(options.org, options.id, change);
  if (!listing) throw notFound('listing', options.id);
  return shown('updated', listing);
}

export async function setListingStatus(listings: ListingsStore, options: { org: string; id: string }, status: 'open' | 'closed'): Promise<CommandResult> {
  if (!(await listings.find(options.org, options.id))) throw notFound('listing', options.id);
  return shown(status === 'closed' ? 'closed' : 'reopened', (await listings.update(options.org, options.id, { status }))!);
}

export async function upsertListing(listings: ListingsStore, options: ListingOptions & { externalId: string }): Promise<CommandResult> {
  const fields = fieldsOf(options);
  if (!fields.title) throw new UsageError('--title is required');
  const { listing, created } = await listings.upsertByExternalId(options.org, options.externalId, { ...fields, title: fields.title });
  return shown(created ? 'created' : 'updated', listing);
}
