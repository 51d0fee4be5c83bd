/** Operating the service: Prometheus metrics and the operators' job dashboard. */
import type { Queue } from 'bullmq';
import { CREDENTIAL_VERIFIERS, type CredentialVerifier } from '../http/principal';
import { jobsDashboardRouter } from '../http/routers/jobs-dashboard-router';
import { metricsRoutes } from '../http/routers/metrics-router';
import { METRICS, type PluginMetrics } from '../observability/metrics';
import type { BullmqJobQueue } from '../queue/bullmq-queue';
import { BULLMQ_QUEUES, QUEUE_DEFINITIONS } from './infrastructure';
import type { QueueDefinition } from '../domain/jobs/job-queue';
import type { PluginModule } from './module';

export const operationsModule: PluginModule = {
  name: 'operations',
  register() {
    // Everything it needs is registered by the infrastructure (metrics, queues, verifiers).
  },
  routers: [
    {
      name: 'metrics',
      create: (container, kit) => kit.build('metrics', metricsRoutes(container.resolve<PluginMetrics>(METRICS))),
    },
    {
      name: 'jobs-dashboard',
      create: (container, kit) => {
        const bullmq = container.isRegistered(BULLMQ_QUEUES) ? container.resolve<BullmqJobQueue>(BULLMQ_QUEUES) : undefined;
        const definitions = container.resolve<Map<string, QueueDefinition>>(QUEUE_DEFINITIONS);
        return jobsDashboardRouter(
          { queues: (): Queue[] | undefined => (bullmq ? [...definitions.keys()].map((name) => bullmq.queue(name)) : undefined) },
          container.resolveAll<CredentialVerifier>(CREDENTIAL_VERIFIERS),
          kit.policy,
        );
      },
    },
  ],
};
