/**
 * One import of a feed: queued (by the API or the schedule), running, then succeeded (the
 * feed was read; `not_modified` when it answered 304) or failed with a stable code. Its
 * counts and the first per-job errors are the report; `run_id` is its action run.
 */
import type { OutboxMessage } from '../../../kernel/outbox';
import type { ItemError } from './feed-import';

export type JobImportStatus = 'queued' | 'running' | 'succeeded' | 'failed';
export type JobImportTrigger = 'api' | 'schedule';

export interface JobImport {
  id: string;
  organizationId: string;
  feedId: string;
  trigger: JobImportTrigger;
  status: JobImportStatus;
  notModified: boolean;
  runId: string | null;
  jobs: number;
  created: number;
  updated: number;
  closed: number;
  errorCount: number;
  errors: ItemError[];
  errorCode: string | null;
  errorMessage: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

export type JobImportResult = Pick<
  JobImport,
  'status' | 'notModified' | 'runId' | 'jobs' | 'created' | 'updated' | 'closed' | 'errorCount' | 'errors' | 'errorCode' | 'errorMessage'
>;

export interface JobImportRepository {
  /** Inserts the import and its job message, unless the feed has one queued or running: then answers that one. */
  enqueue(jobImport: JobImport, message: OutboxMessage): Promise<{ jobImport: JobImport; created: boolean }>;
  find(organizationId: string, id: string): Promise<JobImport | undefined>;
  findById(id: string): Promise<JobImport | undefined>;
  /** Newest first. */
  list(organizationId: string, feedId: string, options: { limit: number; startingAfter?: string }): Promise<{ data: JobImport[]; hasMore: boolean }>;
  markRunning(id: string): Promise<void>;
  finish(id: string, result: JobImportResult, at: Date): Promise<JobImport>;
}

export const JOB_IMPORT_REPOSITORY = Symbol('JobImportRepository');

export const JOB_IMPORT_QUEUE = 'job-import';

export function jobImportMessage(importId: string): OutboxMessage {
  return { queue: JOB_IMPORT_QUEUE, name: 'import', data: { import_id: importId }, jobId: `import-${importId}` };
}
