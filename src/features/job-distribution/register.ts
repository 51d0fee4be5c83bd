/**
 * Job distribution (sourcing.distribute_jobs): channels with their own feeds and tracked
 * apply links, the `source` verifier the apply service uses, and the attribution report
 * (docs/job-distribution.md). Its tables hold no candidate data: channel names and view counts.
 */
import { instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import type { Config } from '../../kernel/config';
import { CLOCK, type Clock } from '../../kernel/clock';
import { CONFIG, MANIFEST } from '../../composition/infrastructure';
import type { Manifest } from '../../platform/manifest/manifest';
import type { PluginModule } from '../../platform/composition/plugin-module';
import type { Database } from '../../platform/database/database';
import { DATABASE } from '../../platform/database/tokens';
import { deriveKey } from '../../platform/security/key-derivation';
import { APPLICATION_SOURCES, type ApplicationSources } from '../applications/domain/application-source';
import { APPLICATION_REPOSITORY, type ApplicationRepository } from '../applications/domain/ports';
import { JOB_FEEDS, type JobFeeds } from '../job-feeds/domain/job-feeds';
import { ENTITLEMENTS, type Entitlements } from '../licensing/domain/entitlements';
import { LISTINGS_DIRECTORY, type ListingsDirectory } from '../listings/domain/listing';
import { noCandidateData } from '../privacy/domain/candidate-data';
import { registerCandidateData } from '../privacy/register';
import { CHANNEL_REPOSITORY, type ChannelRepository } from './domain/channel';
import { DISTRIBUTE_JOBS, JobDistribution } from './domain/job-distribution';
import { SourceTokens } from './domain/source-tokens';
import { distributionPublicRoutes } from './http/distribution-public-router';
import { jobDistributionRoutes } from './http/job-distribution-router';
import { KnexChannelRepository } from './storage/knex-channel-repository';

const SOURCE_TOKENS = Symbol('SourceTokens');
const JOB_DISTRIBUTION = Symbol('JobDistribution');

function jobDistribution(c: DependencyContainer): JobDistribution {
  const config = c.resolve<Config>(CONFIG);
  const publicPath = c.resolve<Manifest>(MANIFEST).routers.find((r) => r.name === 'job-distribution-public')?.mountPath ?? '/v1/public';
  const base = (organizationId: string) => `${config.baseUrl}${publicPath}/organizations/${encodeURIComponent(organizationId)}`;
  return new JobDistribution({
    channels: c.resolve<ChannelRepository>(CHANNEL_REPOSITORY),
    applications: c.resolve<ApplicationRepository>(APPLICATION_REPOSITORY),
    feeds: c.resolve<JobFeeds>(JOB_FEEDS),
    tokens: c.resolve<SourceTokens>(SOURCE_TOKENS),
    entitlements: c.resolve<Entitlements>(ENTITLEMENTS),
    listings: c.resolve<ListingsDirectory>(LISTINGS_DIRECTORY),
    clock: c.resolve<Clock>(CLOCK),
    listingUrlTemplate: config.jobFeedsListingUrl,
    urls: {
      feed: (organizationId, channel, file) => `${base(organizationId)}/channels/${encodeURIComponent(channel)}/${file}`,
      trackedLink: (organizationId, listingId, source) =>
        `${base(organizationId)}/listings/${encodeURIComponent(listingId)}/apply?source=${encodeURIComponent(source)}`,
    },
  });
}

export const jobDistributionModule: PluginModule = {
  name: 'job-distribution',
  builtInActions: [DISTRIBUTE_JOBS],
  register(container, { config }) {
    const db = container.resolve<Database>(DATABASE);
    const tokens = new SourceTokens(deriveKey(config.secretKey, 'job-distribution-sources'));
    container.register<SourceTokens>(SOURCE_TOKENS, { useValue: tokens });
    container.register<ApplicationSources>(APPLICATION_SOURCES, { useValue: tokens });
    container.register<ChannelRepository>(CHANNEL_REPOSITORY, { useFactory: instanceCachingFactory(() => new KnexChannelRepository(db)) });
    container.register<JobDistribution>(JOB_DISTRIBUTION, { useFactory: instanceCachingFactory(jobDistribution) });
    registerCandidateData(container, noCandidateData('hi_distribution_channels', "An organization's distribution channel names"));
    registerCandidateData(
      container,
      noCandidateData('hi_distribution_views', 'View counts of tracked apply links per channel and listing; nothing about the visitor'),
    );
  },
  routers: [
    {
      name: 'job-distribution',
      create: (container, kit) => kit.build('job-distribution', jobDistributionRoutes(container.resolve<JobDistribution>(JOB_DISTRIBUTION))),
    },
    {
      name: 'job-distribution-public',
      create: (container, kit) => kit.build('job-distribution-public', distributionPublicRoutes(container.resolve<JobDistribution>(JOB_DISTRIBUTION))),
    },
  ],
};
