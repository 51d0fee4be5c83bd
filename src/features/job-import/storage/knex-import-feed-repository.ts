/** Import feeds on knex (hi_job_import_feeds): one row per feed, with what its last import left. */
import type { Database } from '../../../platform/database/database';
import { fromJson } from '../../../platform/database/json-column';
import type { FeedFormat } from '../domain/feed-import';
import type { ImportFeed, ImportFeedChange, ImportFeedRepository } from '../domain/import-feed';

interface FeedRow {
  id: string;
  organization_id: string;
  url: string;
  format: FeedFormat;
  interval_minutes: number;
  etag: string | null;
  last_modified: string | null;
  external_ids: unknown;
  next_run_at: Date;
  created_at: Date;
  updated_at: Date;
}

const TABLE = 'hi_job_import_feeds';

const fromRow = (row: FeedRow): ImportFeed => ({
  id: row.id,
  organizationId: row.organization_id,
  url: row.url,
  format: row.format,
  intervalMinutes: Number(row.interval_minutes),
  validators: { ...(row.etag ? { etag: row.etag } : {}), ...(row.last_modified ? { lastModified: row.last_modified } : {}) },
  externalIds: fromJson<string[]>(row.external_ids) ?? [],
  nextRunAt: new Date(row.next_run_at),
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

export class KnexImportFeedRepository implements ImportFeedRepository {
  constructor(private readonly db: Database) {}

  async create(feed: ImportFeed): Promise<void> {
    await this.db(TABLE).insert({
      id: feed.id,
      organization_id: feed.organizationId,
      url: feed.url,
      format: feed.format,
      interval_minutes: feed.intervalMinutes,
      external_ids: JSON.stringify(feed.externalIds),
      next_run_at: feed.nextRunAt,
      created_at: feed.createdAt,
      updated_at: feed.updatedAt,
    });
  }

  async find(organizationId: string, id: string): Promise<ImportFeed | undefined> {
    const row = await this.db<FeedRow>(TABLE).where({ organization_id: organizationId, id }).first();
    return row ? fromRow(row) : undefined;
  }

  async list(organizationId: string, options: { limit: number; startingAfter?: string }): Promise<{ data: ImportFeed[]; hasMore: boolean }> {
    let query = this.db<FeedRow>(TABLE)
      .where({ organization_id: organizationId })
      .orderBy([{ column: 'created_at' }, { column: 'id' }])
      .limit(options.limit + 1);
    if (options.startingAfter) {
      const cursor = await this.db<FeedRow>(TABLE).where({ organization_id: organizationId, id: options.startingAfter }).first();
      if (cursor)
        query = query.where((w) =>
          w.where('created_at', '>', cursor.created_at).orWhere((a) => a.where('created_at', cursor.created_at).where('id', '>', cursor.id)),
        );
    }
    const rows = await query;
    return { data: rows.slice(0, options.limit).map(fromRow), hasMore: rows.length > options.limit };
  }

  async count(organizationId: string): Promise<number> {
    const row = (await this.db(TABLE).where({ organization_id: organizationId }).count({ n: '*' }).first()) as { n: string | number } | undefined;
    return Number(row?.n ?? 0);
  }

  async update(organizationId: string, id: string, change: ImportFeedChange & { nextRunAt?: Date }, at: Date): Promise<ImportFeed | undefined> {
    const values: Record<string, unknown> = { updated_at: at };
    if (change.url !== undefined) values.url = change.url;
    if (change.format !== undefined) values.format = change.format;
    if (change.intervalMinutes !== undefined) values.interval_minutes = change.intervalMinutes;
    if (change.nextRunAt !== undefined) values.next_run_at = change.nextRunAt;
    // Another feed behind the same id: the former validators and ids mean nothing for it.
    if (change.url !== undefined || change.format !== undefined) Object.assign(values, { etag: null, last_modified: null });
    const rows = await this.db<FeedRow>(TABLE).where({ organization_id: organizationId, id }).update(values).returning('*');
    return rows[0] ? fromRow(rows[0] as FeedRow) : undefined;
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    return (await this.db(TABLE).where({ organization_id: organizationId, id }).delete()) > 0;
  }

  async remember(id: string, state: { validators: { etag?: string; lastModified?: string }; externalIds: string[] }, at: Date): Promise<void> {
    await this.db(TABLE)
      .where({ id })
      .update({
        etag: state.validators.etag ?? null,
        last_modified: state.validators.lastModified ?? null,
        external_ids: JSON.stringify(state.externalIds),
        updated_at: at,
      });
  }

  async claimDue(now: Date, limit: number): Promise<ImportFeed[]> {
    // One statement: the rows are locked, moved to their next time and answered, so two sweeps never both take a feed.
    const due = this.db(TABLE).select('id').where('next_run_at', '<=', now).orderBy('next_run_at').limit(limit).forUpdate().skipLocked();
    const rows = await this.db<FeedRow>(TABLE)
      .whereIn('id', due)
      .update({ next_run_at: this.db.raw(`?::timestamptz + make_interval(mins => interval_minutes)`, [now.toISOString()]) })
      .returning('*');
    return (rows as FeedRow[]).map(fromRow);
  }
}
