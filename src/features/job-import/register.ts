/**
 * Job import (`job_import.import_jobs`): feeds an organization imports listings from, each
 * import a queued job and an action run, and the sweep that imports each feed on its interval
 * (docs/job-import.md). Its tables hold no candidate data: feed URLs, listing ids, reports.
 * Needs a host whose listings the plugin manages (the standalone host); elsewhere a feed
 * cannot be registered (409 listings_not_managed).
 */
import { instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import { BULLMQ_QUEUES, MANIFEST } from '../../composition/infrastructure';
import { CLOCK, type Clock } from '../../kernel/clock';
import { OUTBOX_NOTIFIER, type OutboxNotifier } from '../../kernel/outbox';
import type { PluginModule } from '../../platform/composition/plugin-module';
import type { Database } from '../../platform/database/database';
import { DATABASE } from '../../platform/database/tokens';
import type { Manifest } from '../../platform/manifest/manifest';
import type { BullmqJobQueue } from '../../platform/queue/bullmq-queue';
import { scheduleRepeatingJob } from '../../platform/queue/repeating-job';
import { ACTION_RUN_REPOSITORY, type ActionRunRepository } from '../action-runs/domain/action-run';
import { ActionRunner } from '../action-runs/domain/action-runner';
import { ENTITLEMENTS, type Entitlements } from '../licensing/domain/entitlements';
import { LISTINGS_MANAGER, type ListingsManager } from '../listings/domain/listing-management';
import { noCandidateData } from '../privacy/domain/candidate-data';
import { registerCandidateData } from '../privacy/register';
import { DESTINATION_FETCH, DESTINATION_POLICY, type DestinationFetch, type DestinationPolicy } from '../webhooks/domain/ports';
import { FeedImport } from './domain/feed-import';
import { IMPORT_FEED_REPOSITORY, type ImportFeedRepository } from './domain/import-feed';
import { JOB_IMPORT_REPOSITORY, type JobImportRepository } from './domain/job-import';
import { IMPORT_JOBS, JobImports } from './domain/job-imports';
import { jobImportRoutes } from './http/job-imports-router';
import { JobImportProcessor } from './jobs/job-import';
import { JobImportSweepProcessor, JOB_IMPORT_SWEEP_QUEUE } from './jobs/job-import-sweep';
import { HttpFeedFetcher } from './storage/http-feed-fetcher';
import { KnexImportFeedRepository } from './storage/knex-import-feed-repository';
import { KnexJobImportRepository } from './storage/knex-job-import-repository';

function jobImports(c: DependencyContainer): JobImports {
  const manifest = c.resolve<Manifest>(MANIFEST);
  const policy = c.resolve<DestinationPolicy>(DESTINATION_POLICY);
  const listings = c.isRegistered(LISTINGS_MANAGER) ? c.resolve<ListingsManager>(LISTINGS_MANAGER) : undefined;
  return new JobImports({
    feeds: c.resolve<ImportFeedRepository>(IMPORT_FEED_REPOSITORY),
    imports: c.resolve<JobImportRepository>(JOB_IMPORT_REPOSITORY),
    importer: listings
      ? new FeedImport(new HttpFeedFetcher(policy, `${manifest.name}/${manifest.version} job-import`, c.resolve<DestinationFetch>(DESTINATION_FETCH)), listings)
      : undefined,
    runner: c.resolve(ActionRunner),
    runs: c.resolve<ActionRunRepository>(ACTION_RUN_REPOSITORY),
    entitlements: c.resolve<Entitlements>(ENTITLEMENTS),
    policy,
    outbox: c.resolve<OutboxNotifier>(OUTBOX_NOTIFIER),
    now: () => c.resolve<Clock>(CLOCK).now(),
  });
}

export const jobImportModule: PluginModule = {
  name: 'job-import',
  builtInActions: [IMPORT_JOBS],
  register(container) {
    const db = container.resolve<Database>(DATABASE);
    container.register<ImportFeedRepository>(IMPORT_FEED_REPOSITORY, { useFactory: instanceCachingFactory(() => new KnexImportFeedRepository(db)) });
    container.register<JobImportRepository>(JOB_IMPORT_REPOSITORY, { useFactory: instanceCachingFactory(() => new KnexJobImportRepository(db)) });
    container.register(JobImports, { useFactory: instanceCachingFactory(jobImports) });
    container.register(JobImportProcessor, { useFactory: instanceCachingFactory((c) => new JobImportProcessor(c.resolve(JobImports))) });
    container.register(JobImportSweepProcessor, { useFactory: instanceCachingFactory((c) => new JobImportSweepProcessor(c.resolve(JobImports))) });
    registerCandidateData(
      container,
      noCandidateData('hi_job_import_feeds', "Organizations' job feed URLs, their HTTP validators and the listings' external ids"),
    );
    registerCandidateData(
      container,
      noCandidateData('hi_job_imports', 'Imports of job feeds: counts and per-job errors (positions, listing references, codes)'),
    );
  },
  routers: [{ name: 'job-imports', create: (container, kit) => kit.build('job-imports', jobImportRoutes(container.resolve(JobImports))) }],
  processors: (container: DependencyContainer) => [container.resolve(JobImportProcessor), container.resolve(JobImportSweepProcessor)],
  async start(container, { config, logger }) {
    const bullmq = container.isRegistered(BULLMQ_QUEUES) ? container.resolve<BullmqJobQueue>(BULLMQ_QUEUES) : undefined;
    const stop = await scheduleRepeatingJob(
      {
        processor: container.resolve(JobImportSweepProcessor),
        schedulerId: JOB_IMPORT_SWEEP_QUEUE,
        jobName: 'sweep',
        intervalMs: config.jobImportSweepIntervalSeconds * 1000,
        label: 'the job import sweep',
      },
      bullmq,
      logger,
    );
    return async () => stop();
  },
};
