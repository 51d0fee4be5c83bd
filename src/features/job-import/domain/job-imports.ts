/**
 * job_import.import_jobs, the feature: an organization registers feeds; each is imported
 * when asked (POST …/run) and on its interval (the sweep), always as a queued job so an
 * import of 10,000 jobs never holds a request open. Each import is an action run that
 * succeeds only when the feed was read (a 304 is a succeeded no-op) and fails with the
 * feed's code otherwise; what it left (validators, external ids) is kept for the next one.
 */
import type { Entitlements } from '../../licensing/domain/entitlements';
import type { ActionRunRepository } from '../../action-runs/domain/action-run';
import type { ActionRunner } from '../../action-runs/domain/action-runner';
import type { DestinationPolicy } from '../../webhooks/domain/ports';
import { conflict, DomainError, invalid, notFound } from '../../../kernel/errors';
import { newId } from '../../../kernel/ids';
import type { OutboxNotifier } from '../../../kernel/outbox';
import type { FeedFormat, FeedImport, ImportOutcome } from './feed-import';
import { MAX_FEEDS_PER_ORGANIZATION, type ImportFeed, type ImportFeedChange, type ImportFeedRepository } from './import-feed';
import { jobImportMessage, type JobImport, type JobImportRepository, type JobImportResult, type JobImportTrigger } from './job-import';

export const IMPORT_JOBS = 'job_import.import_jobs';

/** Feeds the sweep takes at once; the rest wait for the next sweep. */
const SWEEP_BATCH = 100;
/** Longer than a fetch may take (5 minutes) and the job's retries: an import pending this long was lost (a crash). */
const STALLED_AFTER_MS = 30 * 60_000;

export interface JobImportsDeps {
  feeds: ImportFeedRepository;
  imports: JobImportRepository;
  /** Undefined on a host whose listings the plugin does not manage. */
  importer: FeedImport | undefined;
  runner: ActionRunner;
  /** To name the failed run on a failed import (the runner answers a failure by throwing). */
  runs: ActionRunRepository;
  entitlements: Entitlements;
  policy: DestinationPolicy;
  outbox: OutboxNotifier;
  now: () => Date;
}

export interface FeedInput {
  url: string;
  format: FeedFormat;
  intervalMinutes: number;
}

const empty = { jobs: 0, created: 0, updated: 0, closed: 0, errorCount: 0, errors: [] };

export class JobImports {
  constructor(private readonly deps: JobImportsDeps) {}

  async createFeed(organizationId: string, input: FeedInput): Promise<ImportFeed> {
    await this.deps.entitlements.requireActive(organizationId, IMPORT_JOBS);
    if (!this.deps.importer) throw conflict('listings_not_managed', "This host's listings are not managed by the plugin: there is nothing to import into");
    await this.checkUrl(input.url);
    if ((await this.deps.feeds.count(organizationId)) >= MAX_FEEDS_PER_ORGANIZATION) {
      throw conflict('feed_limit_reached', `An organization imports from at most ${MAX_FEEDS_PER_ORGANIZATION} feeds`);
    }
    const now = this.deps.now();
    // Due at once: the first import follows the registration at the next sweep.
    const feed: ImportFeed = { id: newId('jfeed'), organizationId, ...input, validators: {}, externalIds: [], nextRunAt: now, createdAt: now, updatedAt: now };
    await this.deps.feeds.create(feed);
    return feed;
  }

  async getFeed(organizationId: string, id: string): Promise<ImportFeed> {
    const feed = await this.deps.feeds.find(organizationId, id);
    if (!feed) throw notFound('feed', id);
    return feed;
  }

  listFeeds(organizationId: string, options: { limit: number; startingAfter?: string }) {
    return this.deps.feeds.list(organizationId, options);
  }

  async updateFeed(organizationId: string, id: string, change: ImportFeedChange): Promise<ImportFeed> {
    if (change.url !== undefined) await this.checkUrl(change.url);
    const current = await this.getFeed(organizationId, id);
    const now = this.deps.now();
    // A new interval counts from now; a new URL or format is imported at the next sweep.
    const nextRunAt =
      change.url !== undefined || change.format !== undefined
        ? now
        : change.intervalMinutes !== undefined
          ? new Date(Math.min(current.nextRunAt.getTime(), now.getTime() + change.intervalMinutes * 60_000))
          : undefined;
    const updated = await this.deps.feeds.update(organizationId, id, { ...change, ...(nextRunAt ? { nextRunAt } : {}) }, now);
    if (!updated) throw notFound('feed', id);
    return updated;
  }

  /** The listings it imported stay as they are (closing them is the organization's call). */
  async deleteFeed(organizationId: string, id: string): Promise<void> {
    if (!(await this.deps.feeds.delete(organizationId, id))) throw notFound('feed', id);
  }

  /** Queues an import of the feed; while one is queued or running, answers that one. */
  async requestRun(organizationId: string, feedId: string, trigger: JobImportTrigger = 'api'): Promise<{ jobImport: JobImport; created: boolean }> {
    // Another organization's feed is 404 before anything else is said about it.
    await this.getFeed(organizationId, feedId);
    if (trigger === 'api') await this.deps.entitlements.requireActive(organizationId, IMPORT_JOBS);
    const draft: JobImport = {
      id: newId('jimp'),
      organizationId,
      feedId,
      trigger,
      status: 'queued',
      notModified: false,
      runId: null,
      ...empty,
      errorCode: null,
      errorMessage: null,
      createdAt: this.deps.now(),
      finishedAt: null,
    };
    let queued = await this.deps.imports.enqueue(draft, jobImportMessage(draft.id));
    if (!queued.created && queued.jobImport.createdAt.getTime() < draft.createdAt.getTime() - STALLED_AFTER_MS) {
      // A lost import must not hold the feed forever: it is failed, and this one takes its place.
      const stalled = { ...empty, notModified: false, runId: null, errorCode: 'import_stalled', errorMessage: 'The import did not finish in time' };
      await this.deps.imports.finish(queued.jobImport.id, { status: 'failed', ...stalled }, draft.createdAt);
      queued = await this.deps.imports.enqueue(draft, jobImportMessage(draft.id));
    }
    if (queued.created) this.deps.outbox.nudge();
    return queued;
  }

  async getImport(organizationId: string, id: string): Promise<JobImport> {
    const found = await this.deps.imports.find(organizationId, id);
    if (!found) throw notFound('import', id);
    return found;
  }

  async listImports(organizationId: string, feedId: string, options: { limit: number; startingAfter?: string }) {
    await this.getFeed(organizationId, feedId);
    return this.deps.imports.list(organizationId, feedId, options);
  }

  /** The schedule: queues an import of every feed due whose organization holds the license. */
  async sweep(): Promise<{ queued: number }> {
    let queued = 0;
    for (const feed of await this.deps.feeds.claimDue(this.deps.now(), SWEEP_BATCH)) {
      if (!(await this.deps.entitlements.isActive(feed.organizationId, IMPORT_JOBS))) continue;
      if ((await this.requestRun(feed.organizationId, feed.id, 'schedule')).created) queued += 1;
    }
    return { queued };
  }

  /** The queued job: imports the feed as an action run and records the report. Never throws for the feed's own failures. */
  async perform(importId: string): Promise<JobImport | undefined> {
    const jobImport = await this.deps.imports.findById(importId);
    if (!jobImport || jobImport.status === 'succeeded' || jobImport.status === 'failed') return jobImport;
    const feed = await this.deps.feeds.find(jobImport.organizationId, jobImport.feedId);
    if (!feed) return undefined; // deleted meanwhile: its imports went with it
    await this.deps.imports.markRunning(importId);
    let outcome: ImportOutcome | undefined;
    let result: JobImportResult;
    try {
      const run = await this.deps.runner.perform(
        {
          organizationId: feed.organizationId,
          idempotencyKey: `job_import:${importId}`,
          action: IMPORT_JOBS,
          step: 'job_feed',
          connector: 'http',
          connectionId: null,
          livemode: true,
        },
        async () => {
          if (!(await this.deps.entitlements.isActive(feed.organizationId, IMPORT_JOBS))) {
            throw new DomainError('forbidden', 'license_required', `This organization has no active license for '${IMPORT_JOBS}'`);
          }
          if (!this.deps.importer) throw new DomainError('conflict', 'listings_not_managed', "This host's listings are not managed by the plugin");
          try {
            outcome = await this.deps.importer.run(feed.organizationId, feed.url, { validators: feed.validators, externalIds: feed.externalIds }, feed.format);
          } catch (error) {
            if (error instanceof DomainError) throw error;
            // Our side broke off (the database, most likely): a failed run with its code, never one left retrying;
            // what was upserted or closed stays, and the next import repeats the rest.
            throw new DomainError('conflict', 'import_interrupted', `The import stopped: ${(error as Error).message}`.slice(0, 300));
          }
          if (outcome.status === 'failed') throw new DomainError('conflict', outcome.code, outcome.message);
          return {
            reference: importId,
            answer:
              outcome.status === 'imported'
                ? { jobs: outcome.jobs, created: outcome.created, updated: outcome.updated, closed: outcome.closed }
                : { not_modified: true },
          };
        },
      );
      result = { status: 'succeeded', notModified: outcome?.status === 'not_modified', runId: run.id, ...empty, errorCode: null, errorMessage: null };
      if (outcome?.status === 'imported') {
        const { jobs, created, updated, closed, errorCount, errors } = outcome;
        result = { ...result, jobs, created, updated, closed, errorCount, errors };
        await this.deps.feeds.remember(feed.id, { validators: outcome.validators, externalIds: outcome.externalIds }, this.deps.now());
      }
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      // The run is on record as failed with the code; the import says the same and names it.
      const runId = await this.runOf(feed.organizationId, importId);
      result = { status: 'failed', notModified: false, runId, ...empty, errorCode: error.code, errorMessage: error.message.slice(0, 300) };
    }
    return this.deps.imports.finish(importId, result, this.deps.now());
  }

  private async runOf(organizationId: string, importId: string): Promise<string | null> {
    const recent = await this.deps.runs.list(organizationId, { action: IMPORT_JOBS, limit: 20 });
    return recent.data.find((run) => run.idempotencyKey === `job_import:${importId}`)?.id ?? null;
  }

  private async checkUrl(url: string): Promise<void> {
    try {
      await this.deps.policy.check(url);
    } catch (error) {
      if (error instanceof DomainError) throw invalid('feed_url_refused', error.message, 'url');
      throw error;
    }
  }
}
