/** Operating the service: Prometheus metrics and the operators' job dashboard. */
import type { Queue } from 'bullmq';
import { CREDENTIAL_VERIFIERS, type CredentialVerifier } from '../../platform/http/principal';
import { jobsDashboardRouter } from './http/jobs-dashboard-router';
import { metricsRoutes } from './http/metrics-router';
import { METRICS, type PluginMetrics } from '../../platform/observability/metrics';
import type { BullmqJobQueue } from '../../platform/queue/bullmq-queue';
import { BULLMQ_QUEUES, QUEUE_DEFINITIONS } from '../../composition/infrastructure';
import type { QueueDefinition } from '../../kernel/job-queue';
import type { PluginModule } from '../../platform/composition/plugin-module';

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
