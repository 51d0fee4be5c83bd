/** Action run outcomes per connector, with their duration (one histogram on the activation's registry). */
import { Histogram, type Registry } from 'prom-client';
import type { RunMetrics } from '../domain/action-runner';
import { METRICS_PREFIX } from '../../../platform/observability/metrics';

export class PrometheusRunMetrics implements RunMetrics {
  private readonly duration: Histogram<'connector' | 'outcome'>;

  constructor(registry: Registry) {
    this.duration = new Histogram({
      name: `${METRICS_PREFIX}action_run_attempt_duration_seconds`,
      help: 'Action run attempts by connector and outcome (succeeded, transient_error, permanent_error), with their duration',
      labelNames: ['connector', 'outcome'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
      registers: [registry],
    });
  }

  observe(connector: string, outcome: 'succeeded' | 'transient_error' | 'permanent_error', seconds: number): void {
    this.duration.observe({ connector, outcome }, seconds);
  }
}
