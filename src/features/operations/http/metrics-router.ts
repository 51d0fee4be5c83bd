import type { PluginMetrics } from '../../../platform/observability/metrics';
import { defineRoute, type RouteDefinition } from '../../../platform/http/route';

/**
 * GET /metrics in the Prometheus text format, for the operator credential only (a scrape
 * job sends `authorization: { credentials: <OPERATOR_API_KEY> }`). Without
 * OPERATOR_API_KEY, metrics are not served to anyone.
 */
export function metricsRoutes(metrics: PluginMetrics): RouteDefinition<any, any, any>[] {
  return [
    defineRoute({
      method: 'get',
      path: '/metrics',
      operationId: 'getMetrics',
      summary: 'Prometheus metrics of this process (text exposition format); operator credential',
      tags: ['operations'],
      auth: ['operator'],
      produces: 'text/plain',
      handler: async ({ res }) => {
        const text = await metrics.text();
        res.setHeader('Content-Type', metrics.contentType);
        res.setHeader('Cache-Control', 'no-store');
        res.status(200).end(text);
      },
    }),
  ];
}
