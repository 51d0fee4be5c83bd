/** Imports on knex (hi_job_imports): at most one queued or running per feed (a partial unique index). */
import type { OutboxMessage } from '../../../kernel/outbox';
import { isUniqueViolation, type Database } from '../../../platform/database/database';
import { fromJson } from '../../../platform/database/json-column';
import { outboxRows } from '../../../platform/queue/outbox-rows';
import type { ItemError } from '../domain/feed-import';
import type { JobImport, JobImportRepository, JobImportResult, JobImportStatus, JobImportTrigger } from '../domain/job-import';

interface ImportRow {
  id: string;
  organization_id: string;
  feed_id: string;
  trigger: JobImportTrigger;
  status: JobImportStatus;
  not_modified: boolean;
  run_id: string | null;
  jobs: number;
  created: number;
  updated: number;
  closed: number;
  error_count: number;
  errors: unknown;
  error_code: string | null;
  error_message: string | null;
  created_at: Date;
  finished_at: Date | null;
}

const TABLE = 'hi_job_imports';
const ONE_PENDING = 'hi_job_imports_one_pending';

const fromRow = (row: ImportRow): JobImport => ({
  id: row.id,
  organizationId: row.organization_id,
  feedId: row.feed_id,
  trigger: row.trigger,
  status: row.status,
  notModified: Boolean(row.not_modified),
  runId: row.run_id,
  jobs: Number(row.jobs),
  created: Number(row.created),
  updated: Number(row.updated),
  closed: Number(row.closed),
  errorCount: Number(row.error_count),
  errors: fromJson<ItemError[]>(row.errors) ?? [],
  errorCode: row.error_code,
  errorMessage: row.error_message,
  createdAt: new Date(row.created_at),
  finishedAt: row.finished_at ? new Date(row.finished_at) : null,
});

export class KnexJobImportRepository implements JobImportRepository {
  constructor(private readonly db: Database) {}

  async enqueue(jobImport: JobImport, message: OutboxMessage): Promise<{ jobImport: JobImport; created: boolean }> {
    const row = {
      id: jobImport.id,
      organization_id: jobImport.organizationId,
      feed_id: jobImport.feedId,
      trigger: jobImport.trigger,
      status: jobImport.status,
      created_at: jobImport.createdAt,
    };
    try {
      // The import and its job message in one statement: both or neither.
      await this.db
        .with('job_import', this.db(TABLE).insert(row))
        .insert(outboxRows([message]))
        .into('hi_outbox');
      return { jobImport, created: true };
    } catch (error) {
      if (!isUniqueViolation(error, ONE_PENDING)) throw error;
      const pending = await this.db<ImportRow>(TABLE).where({ feed_id: jobImport.feedId }).whereIn('status', ['queued', 'running']).first();
      if (!pending) throw error;
      return { jobImport: fromRow(pending), created: false };
    }
  }

  async find(organizationId: string, id: string): Promise<JobImport | undefined> {
    const row = await this.db<ImportRow>(TABLE).where({ organization_id: organizationId, id }).first();
    return row ? fromRow(row) : undefined;
  }

  async findById(id: string): Promise<JobImport | undefined> {
    const row = await this.db<ImportRow>(TABLE).where({ id }).first();
    return row ? fromRow(row) : undefined;
  }

  async list(organizationId: string, feedId: string, options: { limit: number; startingAfter?: string }): Promise<{ data: JobImport[]; hasMore: boolean }> {
    let query = this.db<ImportRow>(TABLE)
      .where({ organization_id: organizationId, feed_id: feedId })
      .orderBy('seq', 'desc')
      .limit(options.limit + 1);
    if (options.startingAfter) {
      query = query.where('seq', '<', this.db(TABLE).select('seq').where({ organization_id: organizationId, id: options.startingAfter }));
    }
    const rows = await query;
    return { data: rows.slice(0, options.limit).map(fromRow), hasMore: rows.length > options.limit };
  }

  async markRunning(id: string): Promise<void> {
    await this.db(TABLE).where({ id, status: 'queued' }).update({ status: 'running' });
  }

  async finish(id: string, result: JobImportResult, at: Date): Promise<JobImport> {
    const rows = await this.db<ImportRow>(TABLE)
      .where({ id })
      .update({
        status: result.status,
        not_modified: result.notModified,
        run_id: result.runId,
        jobs: result.jobs,
        created: result.created,
        updated: result.updated,
        closed: result.closed,
        error_count: result.errorCount,
        errors: JSON.stringify(result.errors),
        error_code: result.errorCode,
        error_message: result.errorMessage,
        finished_at: at,
      })
      .returning('*');
    return fromRow(rows[0] as ImportRow);
  }
}
