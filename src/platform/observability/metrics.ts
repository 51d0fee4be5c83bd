/**
 * Prometheus metrics of one activation. Each activation owns its Registry (never
 * prom-client's global one), so several activations in one process (tests, a host that
 * reloads the plugin) neither collide nor mix their numbers.
 *
 * Served at GET /metrics (operator credential) by the API, and by the worker role on
 * WORKER_HTTP_PORT: job metrics are counted where jobs run, HTTP metrics where requests
 * are served, and queue depths (read from the queue backend) by every process.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { GateMetrics } from '../../kernel/metrics';

export const METRICS_PREFIX = 'hiring_integrations_';

export type JobOutcome = 'completed' | 'retry' | 'failed';

export interface QueueDepth {
  queue: string;
  state: string;
  count: number;
}

/** Something that can say how many jobs each queue holds, per state (the queue adapters). */
export interface QueueDepthSource {
  depths(): Promise<QueueDepth[]>;
}

/**
 * prom-client's default metrics include three gauges named `…_total`
 * (`nodejs_active_handles_total`, `…_requests_total`, `…_resources_total`); Prometheus
 * reserves that suffix for counters and `promtool check metrics` flags them. Each is
 * re-registered as `…_all` (the same value: every handle, request or resource, whatever
 * its type), read through the original gauge so the measurement stays prom-client's.
 */
function renameTotalGauges(registry: Registry): void {
  for (const original of registry.getMetricsAsArray()) {
    const name = original.name;
    if (!name.endsWith('_total') || !(original instanceof Gauge)) continue;
    registry.removeSingleMetric(name);
    new Gauge({
      name: `${name.slice(0, -'_total'.length)}_all`,
      help: original.help,
      registers: [registry],
      async collect() {
        const { values } = await original.get();
        this.set(values[0]?.value ?? 0);
      },
    });
  }
}

export class PluginMetrics implements GateMetrics {
  readonly registry = new Registry();
  private readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  private readonly jobsAdded: Counter<'queue'>;
  private readonly jobsProcessed: Counter<'queue' | 'outcome'>;
  private readonly jobDuration: Histogram<'queue' | 'outcome'>;
  private readonly jobsActive: Gauge<'queue'>;
  private readonly gateChecks: Counter<'action' | 'result'>;
  private readonly cacheLookups: Counter<'result'>;
  private depthSource: QueueDepthSource | undefined;

  constructor(options: { defaultMetrics?: boolean; queues?: readonly string[] } = {}) {
    const registers = [this.registry];
    this.httpDuration = new Histogram({
      name: `${METRICS_PREFIX}http_request_duration_seconds`,
      help: 'HTTP requests by method, route template and status, with their duration',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.jobsAdded = new Counter({
      name: `${METRICS_PREFIX}jobs_added_total`,
      help: 'Jobs handed to the queue by this process (a duplicate job id is added once by the queue)',
      labelNames: ['queue'],
      registers,
    });
    this.jobsProcessed = new Counter({
      name: `${METRICS_PREFIX}jobs_processed_total`,
      help: 'Job attempts run by this process, by outcome: completed, retry (failed, will be retried) or failed (final)',
      labelNames: ['queue', 'outcome'],
      registers,
    });
    this.jobDuration = new Histogram({
      name: `${METRICS_PREFIX}job_duration_seconds`,
      help: 'Duration of job attempts run by this process',
      labelNames: ['queue', 'outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    });
    this.jobsActive = new Gauge({
      name: `${METRICS_PREFIX}jobs_active`,
      help: 'Jobs running in this process right now',
      labelNames: ['queue'],
      registers,
    });
    const self = this;
    new Gauge({
      name: `${METRICS_PREFIX}queue_jobs`,
      help: 'Jobs held by each queue, by state, as the queue backend reports them at scrape time',
      labelNames: ['queue', 'state'],
      registers,
      async collect() {
        this.reset();
        if (!self.depthSource) return;
        try {
          for (const { queue, state, count } of await self.depthSource.depths()) this.set({ queue, state }, count);
        } catch {
          // The backend is unreachable: report no depths rather than fail the scrape.
        }
      },
    });
    this.gateChecks = new Counter({
      name: `${METRICS_PREFIX}gate_checks_total`,
      help: 'License gate decisions by action key: allowed (ran) or skipped (no active license)',
      labelNames: ['action', 'result'],
      registers,
    });
    this.cacheLookups = new Counter({
      name: `${METRICS_PREFIX}entitlement_cache_lookups_total`,
      help: 'Entitlement cache lookups: hit or miss',
      labelNames: ['result'],
      registers,
    });
    // Zero series up front, so dashboards and alerts see every queue before its first job.
    for (const queue of options.queues ?? []) {
      this.jobsAdded.inc({ queue }, 0);
      this.jobsActive.set({ queue }, 0);
      for (const outcome of ['completed', 'retry', 'failed'] as const) this.jobsProcessed.inc({ queue, outcome }, 0);
    }
    for (const result of ['hit', 'miss']) this.cacheLookups.inc({ result }, 0);
    if (options.defaultMetrics ?? true) {
      collectDefaultMetrics({ register: this.registry, prefix: METRICS_PREFIX });
      renameTotalGauges(this.registry);
    }
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The Prometheus text exposition of everything in this activation's registry. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  setQueueDepthSource(source: QueueDepthSource): void {
    this.depthSource = source;
  }

  recordHttpRequest(method: string, route: string, status: number, seconds: number): void {
    this.httpDuration.observe({ method, route, status: String(status) }, seconds);
  }

  recordJobAdded(queue: string): void {
    this.jobsAdded.inc({ queue });
  }

  jobStarted(queue: string): (outcome: JobOutcome) => void {
    this.jobsActive.inc({ queue });
    const end = process.hrtime.bigint();
    return (outcome) => {
      this.jobsActive.dec({ queue });
      this.jobsProcessed.inc({ queue, outcome });
      this.jobDuration.observe({ queue, outcome }, Number(process.hrtime.bigint() - end) / 1e9);
    };
  }

  recordGateCheck(action: string, allowed: boolean): void {
    this.gateChecks.inc({ action, result: allowed ? 'allowed' : 'skipped' });
  }

  recordCacheHit(hit: boolean): void {
    this.cacheLookups.inc({ result: hit ? 'hit' : 'miss' });
  }
}

export const METRICS = Symbol('PluginMetrics');
