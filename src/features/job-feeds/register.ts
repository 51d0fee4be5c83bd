/**
 * Job feeds (`job_boards.post_jobs`): an organization's open listings published where job
 * search engines and aggregators read them, at /v1/public (docs/job-feeds.md). No table:
 * the feeds are computed from the listings the host lets the plugin list.
 */
import { instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import { POST_JOBS } from './domain/job-feeds';
import type { Config } from '../../kernel/config';
import { CLOCK, type Clock } from '../../kernel/clock';
import { CONFIG, MANIFEST } from '../../composition/infrastructure';
import type { Manifest } from '../../platform/manifest/manifest';
import type { PluginModule } from '../../platform/composition/plugin-module';
import { ENTITLEMENTS, type Entitlements } from '../licensing/domain/entitlements';
import { LISTINGS_MANAGER, type ListingsManager } from '../listings/domain/listing-management';
import { ORGANIZATION_REPOSITORY, type OrganizationRepository } from '../organizations/domain/ports';
import { JOB_FEEDS, JobFeeds } from './domain/job-feeds';
import { jobFeedRoutes } from './http/job-feeds-router';

export const jobFeedsModule: PluginModule = {
  name: 'job-feeds',
  builtInActions: [POST_JOBS],
  register(container) {
    // Built from the listings, licensing and organizations features; the job-distribution feature serves channel feeds with it.
    container.register<JobFeeds>(JOB_FEEDS, { useFactory: instanceCachingFactory((c) => jobFeeds(c)) });
  },
  routers: [{ name: 'job-feeds', create: (container, kit) => kit.build('job-feeds', jobFeedRoutes(container.resolve<JobFeeds>(JOB_FEEDS))) }],
};

function jobFeeds(container: DependencyContainer): JobFeeds {
  const config = container.resolve<Config>(CONFIG);
  const manifest = container.resolve<Manifest>(MANIFEST);
  const mountPath = manifest.routers.find((r) => r.name === 'job-feeds')?.mountPath ?? '/v1/public';
  const feeds = new JobFeeds({
    entitlements: container.resolve<Entitlements>(ENTITLEMENTS),
    listings: container.isRegistered(LISTINGS_MANAGER) ? container.resolve<ListingsManager>(LISTINGS_MANAGER) : undefined,
    organizations: container.resolve<OrganizationRepository>(ORGANIZATION_REPOSITORY),
    clock: container.resolve<Clock>(CLOCK),
    listingUrlTemplate: config.jobFeedsListingUrl,
    publisher: manifest.name,
    feedUrl: (organizationId) => `${config.baseUrl}${mountPath}/organizations/${encodeURIComponent(organizationId)}/jobs.xml`,
  });
  return feeds;
}
