import type { ReadinessReport } from '../../../host/contract';
import { defineRoute, reply, type RouteDefinition } from '../../../platform/http/route';
import { healthSchema, readinessSchema } from './operations-schemas';

/** Liveness says the process serves HTTP; readiness also checks the database and Redis. */
export function healthRoutes(readiness: () => Promise<ReadinessReport>): RouteDefinition<any, any, any>[] {
  return [
    defineRoute({
      method: 'get',
      path: '/healthz',
      operationId: 'getHealth',
      summary: 'Liveness',
      tags: ['operations'],
      auth: [],
      rateLimit: false,
      response: healthSchema,
      handler: async () => ({ status: 'ok' }),
    }),
    defineRoute({
      method: 'get',
      path: '/readyz',
      operationId: 'getReadiness',
      summary: 'Readiness: database and, when configured, Redis',
      tags: ['operations'],
      auth: [],
      rateLimit: false,
      response: readinessSchema,
      alsoAnswers: [503],
      handler: async () => {
        const report = await readiness();
        // Public: only whether each dependency answers. Driver messages (hosts, role names)
        // go to the log and to the host through PluginInstance.readiness().
        const checks = Object.fromEntries(Object.entries(report.checks).map(([name, check]) => [name, check === 'ok' ? 'ok' : 'unavailable']));
        return reply(report.ok ? 200 : 503, { status: report.ok ? 'ready' : 'not_ready', checks });
      },
    }),
  ];
}
