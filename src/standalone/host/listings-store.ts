/**
 * The standalone host's listings: the ListingsDirectory the plugin reads, and the
 * ListingsManager its listings API writes through. Upsert by the ATS's `external_id` is
 * one `insert … on conflict do update` on a unique (organization, external_id) index, so
 * any number of concurrent upserts of one id leave one listing.
 */
import { EventEmitter } from 'node:events';
import type { Listing, ListingQuestion, ListingsCaching, ListingsDirectory } from '../../features/listings/domain/listing';
import type { ListingChange, ListingFields, ListingQueryOptions, ListingsManager } from '../../features/listings/domain/listing-management';
import { questionsSchema } from '../../features/listings/domain/questions';
import { conflict } from '../../kernel/errors';
import { newId } from '../../kernel/ids';
import { isUniqueViolation, type Database } from '../../platform/database/database';

const EXTERNAL_ID_TAKEN = 'host_listings_external_id';
const taken = (externalId: unknown) => conflict('listing_exists', `A listing with external_id '${String(externalId)}' exists`, { param: 'external_id' });

export { questionSchema, questionsSchema } from '../../features/listings/domain/questions';

interface ListingRow {
  id: string;
  organization_id: string;
  title: string;
  status: 'open' | 'closed';
  questions: ListingQuestion[] | string;
  external_id: string | null;
  description: string | null;
  location: string | null;
  created_at: Date;
  updated_at: Date;
}

const fromRow = (row: ListingRow): Listing => ({
  id: row.id,
  organizationId: row.organization_id,
  title: row.title,
  status: row.status,
  questions: typeof row.questions === 'string' ? JSON.parse(row.questions) : row.questions,
  externalId: row.external_id ?? null,
  description: row.description ?? null,
  location: row.location ?? null,
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

/** How long the plugin may keep a listing in memory; every change here is reported at once. */
const LISTING_MAX_AGE_MS = 60_000;

export class ListingsStore implements ListingsDirectory, ListingsManager {
  private readonly changes = new EventEmitter().setMaxListeners(0);
  readonly caching: ListingsCaching = {
    maxAgeMs: LISTING_MAX_AGE_MS,
    onChange: (listener) => {
      this.changes.on('change', listener);
      return () => void this.changes.off('change', listener);
    },
  };

  constructor(private readonly db: Database) {}

  /** The CLI's and tests' form: questions checked here. */
  async create(input: { organizationId: string; title: string; questions: unknown; status?: 'open' | 'closed' }): Promise<Listing>;
  async create(organizationId: string, fields: ListingFields): Promise<Listing>;
  async create(
    first: string | { organizationId: string; title: string; questions: unknown; status?: 'open' | 'closed' },
    second?: ListingFields,
  ): Promise<Listing> {
    const [organizationId, fields] =
      typeof first === 'string'
        ? [first, second!]
        : [first.organizationId, { title: first.title, questions: questionsSchema.parse(first.questions) as ListingQuestion[], status: first.status }];
    const title = fields.title.trim();
    if (!title) throw new Error('title must not be empty');
    const now = new Date();
    const rows = await this.db<ListingRow>('host_listings')
      .insert({
        id: newId('listing'),
        organization_id: organizationId,
        title,
        status: fields.status ?? 'open',
        questions: JSON.stringify(fields.questions ?? []),
        external_id: fields.externalId ?? null,
        description: fields.description ?? null,
        location: fields.location ?? null,
        created_at: now,
        updated_at: now,
      } as never)
      .returning('*')
      .catch((error) => {
        throw isUniqueViolation(error, EXTERNAL_ID_TAKEN) ? taken(fields.externalId) : error;
      });
    return fromRow(rows[0] as ListingRow);
  }

  async get(listingId: string): Promise<Listing | undefined> {
    const row = await this.db<ListingRow>('host_listings').where({ id: listingId }).first();
    return row ? fromRow(row) : undefined;
  }

  async find(organizationId: string, listingId: string): Promise<Listing | undefined> {
    const row = await this.db<ListingRow>('host_listings').where({ id: listingId, organization_id: organizationId }).first();
    return row ? fromRow(row) : undefined;
  }

  async list(organizationId: string, options: ListingQueryOptions): Promise<{ data: Listing[]; hasMore: boolean }> {
    let query = this.db<ListingRow>('host_listings')
      .where({ organization_id: organizationId })
      .orderBy('seq', 'desc')
      .limit(options.limit + 1);
    if (options.status) query = query.where({ status: options.status });
    if (options.externalId) query = query.where({ external_id: options.externalId });
    if (options.startingAfter) {
      query = query.where('seq', '<', this.db('host_listings').select('seq').where({ id: options.startingAfter, organization_id: organizationId }));
    }
    const rows = await query;
    return { data: rows.slice(0, options.limit).map(fromRow), hasMore: rows.length > options.limit };
  }

  async update(organizationId: string, listingId: string, change: ListingChange): Promise<Listing | undefined> {
    const patch: Record<string, unknown> = { updated_at: new Date() };
    if (change.title !== undefined) patch.title = change.title.trim();
    if (change.description !== undefined) patch.description = change.description;
    if (change.location !== undefined) patch.location = change.location;
    if (change.questions !== undefined) patch.questions = JSON.stringify(change.questions);
    if (change.status !== undefined) patch.status = change.status;
    if (change.externalId !== undefined) patch.external_id = change.externalId;
    const rows = await this.db<ListingRow>('host_listings')
      .where({ id: listingId, organization_id: organizationId })
      .update(patch as never)
      .returning('*')
      .catch((error) => {
        throw isUniqueViolation(error, EXTERNAL_ID_TAKEN) ? taken(change.externalId) : error;
      });
    if (rows[0]) this.changes.emit('change', listingId);
    return rows[0] ? fromRow(rows[0] as ListingRow) : undefined;
  }

  async upsertByExternalId(organizationId: string, externalId: string, fields: ListingFields): Promise<{ listing: Listing; created: boolean }> {
    const now = new Date();
    const row = {
      id: newId('listing'),
      organization_id: organizationId,
      external_id: externalId,
      title: fields.title.trim(),
      status: fields.status ?? 'open',
      questions: JSON.stringify(fields.questions ?? []),
      description: fields.description ?? null,
      location: fields.location ?? null,
      created_at: now,
      updated_at: now,
    };
    // `xmax = 0` is true only for a row this statement inserted (not one it updated).
    const result = await this.db.raw(
      `insert into host_listings (id, organization_id, external_id, title, status, questions, description, location, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?)
       on conflict (organization_id, external_id) do update set
         title = excluded.title, status = excluded.status, questions = excluded.questions,
         description = excluded.description, location = excluded.location, updated_at = excluded.updated_at
       returning *, (xmax = 0) as inserted`,
      [row.id, row.organization_id, row.external_id, row.title, row.status, row.questions, row.description, row.location, row.created_at, row.updated_at],
    );
    const out = (result.rows ?? result)[0] as ListingRow & { inserted: boolean };
    if (!out.inserted) this.changes.emit('change', out.id);
    return { listing: fromRow(out), created: Boolean(out.inserted) };
  }

  async listForOrganization(organizationId: string): Promise<Listing[]> {
    const rows = await this.db<ListingRow>('host_listings').where({ organization_id: organizationId }).orderBy('created_at');
    return rows.map(fromRow);
  }

  async setStatus(listingId: string, status: 'open' | 'closed'): Promise<void> {
    await this.db('host_listings').where({ id: listingId }).update({ status, updated_at: new Date() });
    this.changes.emit('change', listingId);
  }

  async setQuestions(listingId: string, questions: unknown): Promise<void> {
    const parsed = questionsSchema.parse(questions) as ListingQuestion[];
    await this.db('host_listings')
      .where({ id: listingId })
      .update({ questions: JSON.stringify(parsed), updated_at: new Date() });
    this.changes.emit('change', listingId);
  }
}
