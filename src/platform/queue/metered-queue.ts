/**
 * Wraps whichever queue adapter is in use (BullMQ or in-process) so both report the same
 * job metrics: jobs added, attempts by outcome, durations, and how many run right now.
 * Instrumenting the processors rather than an adapter's events keeps the two identical.
 */
import type { BatchJob, JobOptions, JobProcessor, JobQueue, RequeueOutcome } from '../../kernel/job-queue';
import type { PluginMetrics, QueueDepth, QueueDepthSource } from '../observability/metrics';
import { isRetryable } from './retry-policy';

export interface WorkerCapable {
  startWorkers(processors: readonly JobProcessor[], concurrency?: number): unknown;
  close(): Promise<void>;
}

export function instrumentProcessor(processor: JobProcessor, metrics: PluginMetrics): JobProcessor {
  return {
    queue: processor.queue,
    async process(job) {
      const done = metrics.jobStarted(processor.queue);
      try {
        const result = await processor.process(job);
        done('completed');
        return result;
      } catch (error) {
        done(isRetryable(error) && job.attempt < job.maxAttempts ? 'retry' : 'failed');
        throw error;
      }
    },
  };
}

export class MeteredJobQueue<Q extends JobQueue & WorkerCapable & Partial<QueueDepthSource>> implements JobQueue, WorkerCapable, QueueDepthSource {
  constructor(
    readonly inner: Q,
    private readonly metrics: PluginMetrics,
  ) {}

  async add(queue: string, name: string, data: object, options?: JobOptions): Promise<void> {
    await this.inner.add(queue, name, data, options);
    this.metrics.recordJobAdded(queue);
  }

  async addBatch(queue: string, jobs: readonly BatchJob[]): Promise<void> {
    await this.inner.addBatch(queue, jobs);
    for (let i = 0; i < jobs.length; i++) this.metrics.recordJobAdded(queue);
  }

  remove(queue: string, jobId: string): Promise<boolean> {
    return this.inner.remove(queue, jobId);
  }

  pending(queue: string, jobId: string): Promise<{ data: unknown; runAt: Date } | undefined> {
    return this.inner.pending(queue, jobId);
  }

  async requeue(queue: string, name: string, data: object, jobId: string, finishedBefore: Date): Promise<RequeueOutcome> {
    const outcome = await this.inner.requeue(queue, name, data, jobId, finishedBefore);
    if (outcome !== 'pending') this.metrics.recordJobAdded(queue);
    return outcome;
  }

  startWorkers(processors: readonly JobProcessor[], concurrency?: number): unknown {
    return this.inner.startWorkers(
      processors.map((p) => instrumentProcessor(p, this.metrics)),
      concurrency,
    );
  }

  async depths(): Promise<QueueDepth[]> {
    return this.inner.depths ? this.inner.depths() : [];
  }

  /** Embedded mode (tests): resolves once nothing is running or due. */
  async drain(horizonMs?: number): Promise<void> {
    const inner = this.inner as unknown as { drain?: (h?: number) => Promise<void> };
    if (!inner.drain) throw new Error('drain() is only available on the in-process queue');
    await inner.drain(horizonMs);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
