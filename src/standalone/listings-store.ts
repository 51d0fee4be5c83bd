/** The standalone host's listings: the ListingsDirectory the plugin reads. */
import { EventEmitter } from 'node:events';
import { z } from 'zod';
import type { Listing, ListingQuestion, ListingsCaching, ListingsDirectory } from '../domain/listings/listing';
import { newId } from '../domain/shared/ids';
import type { Database } from '../storage/database';

export const questionSchema = z
  .object({
    key: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'lower snake case, up to 64 characters'),
    label: z.string().min(1).max(500),
    type: z.enum(['number', 'boolean', 'text', 'select']),
    required: z.boolean().default(false),
    options: z.array(z.string().min(1).max(200)).min(1).max(100).optional(),
  })
  .strict()
  .refine((q) => (q.type === 'select') === (q.options !== undefined), {
    message: 'options are required for select questions and only for them',
    path: ['options'],
  });

export const questionsSchema = z
  .array(questionSchema)
  .max(50)
  .refine((qs) => new Set(qs.map((q) => q.key)).size === qs.length, { message: 'question keys must be unique' });

interface ListingRow {
  id: string;
  organization_id: string;
  title: string;
  status: 'open' | 'closed';
  questions: ListingQuestion[] | string;
}

const fromRow = (row: ListingRow): Listing => ({
  id: row.id,
  organizationId: row.organization_id,
  title: row.title,
  status: row.status,
  questions: typeof row.questions === 'string' ? JSON.parse(row.questions) : row.questions,
});

/** How long the plugin may keep a listing in memory; every change here is reported at once. */
const LISTING_MAX_AGE_MS = 60_000;

export class ListingsStore implements ListingsDirectory {
  private readonly changes = new EventEmitter().setMaxListeners(0);
  readonly caching: ListingsCaching = {
    maxAgeMs: LISTING_MAX_AGE_MS,
    onChange: (listener) => {
      this.changes.on('change', listener);
      return () => void this.changes.off('change', listener);
    },
  };

  constructor(private readonly db: Database) {}

  async create(input: { organizationId: string; title: string; questions: unknown; status?: 'open' | 'closed' }): Promise<Listing> {
    const questions = questionsSchema.parse(input.questions) as ListingQuestion[];
    const title = input.title.trim();
    if (!title) throw new Error('title must not be empty');
    const listing: Listing = { id: newId('listing'), organizationId: input.organizationId, title, status: input.status ?? 'open', questions };
    await this.db('host_listings').insert({
      id: listing.id,
      organization_id: listing.organizationId,
      title: listing.title,
      status: listing.status,
      questions: JSON.stringify(listing.questions),
    });
    return listing;
  }

  async get(listingId: string): Promise<Listing | undefined> {
    const row = await this.db<ListingRow>('host_listings').where({ id: listingId }).first();
    return row ? fromRow(row) : undefined;
  }

  async listForOrganization(organizationId: string): Promise<Listing[]> {
    const rows = await this.db<ListingRow>('host_listings').where({ organization_id: organizationId }).orderBy('created_at');
    return rows.map(fromRow);
  }

  async setStatus(listingId: string, status: 'open' | 'closed'): Promise<void> {
    await this.db('host_listings').where({ id: listingId }).update({ status });
    this.changes.emit('change', listingId);
  }

  async setQuestions(listingId: string, questions: unknown): Promise<void> {
    const parsed = questionsSchema.parse(questions) as ListingQuestion[];
    await this.db('host_listings').where({ id: listingId }).update({ questions: JSON.stringify(parsed) });
    this.changes.emit('change', listingId);
  }
}
