/**
 * Embedded-mode adapter: runs the very same processors in this process, with the same
 * job-id dedupe, delays, attempts and exponential backoff as the BullMQ adapter. Jobs
 * live in memory, so a restart loses pending ones: embedded mode is for laptops and demos.
 */
import type { BatchJob, JobContext, JobOptions, JobProcessor, JobQueue, QueueDefinition, RequeueOutcome } from '../../kernel/job-queue';
import type { Logger } from '../../kernel/logger';
import { isOwnOutage, isRetryable, OUTAGE_RETRY_LIMIT, OUTAGE_RETRY_MS, retryDelay } from './retry-policy';

interface InlineJob {
  queue: string;
  id: string;
  name: string;
  data: object;
  attempt: number;
  maxAttempts: number;
  /** Tries that failed on our own outage and did not count as attempts. */
  uncountedTries: number;
  runAt: number;
  timer?: NodeJS.Timeout;
  state: 'waiting' | 'active' | 'done' | 'failed';
  finishedAt?: number;
}

let sequence = 0;

export class InlineJobQueue implements JobQueue {
  private readonly jobs = new Map<string, InlineJob>();
  private readonly processors = new Map<string, JobProcessor>();
  private readonly active = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly definitions: ReadonlyMap<string, QueueDefinition>,
    private readonly logger: Logger,
  ) {}

  startWorkers(processors: readonly JobProcessor[]): void {
    for (const processor of processors) this.processors.set(processor.queue, processor);
    for (const job of this.jobs.values()) if (job.state === 'waiting' && !job.timer) this.schedule(job);
  }

  async add(queue: string, name: string, data: object, options: JobOptions = {}): Promise<void> {
    const definition = this.definition(queue);
    const id = options.jobId ?? `inline-${++sequence}`;
    const key = `${queue}:${id}`;
    const existing = this.jobs.get(key);
    if (existing && existing.state !== 'failed') return;
    const job: InlineJob = {
      queue,
      id,
      name,
      data: structuredClone(data),
      attempt: 1,
      maxAttempts: options.attempts ?? definition.attempts,
      uncountedTries: 0,
      runAt: Date.now() + (options.delayMs ?? 0),
      state: 'waiting',
    };
    this.jobs.set(key, job);
    this.schedule(job);
  }

  async addBatch(queue: string, jobs: readonly BatchJob[]): Promise<void> {
    for (const job of jobs) await this.add(queue, job.name, job.data, job.options);
  }

  async remove(queue: string, jobId: string): Promise<boolean> {
    const job = this.jobs.get(`${queue}:${jobId}`);
    if (!job || job.state !== 'waiting') return false;
    clearTimeout(job.timer);
    this.jobs.delete(`${queue}:${jobId}`);
    return true;
  }

  async requeue(queue: string, name: string, data: object, jobId: string, finishedBefore: Date): Promise<RequeueOutcome> {
    const existing = this.jobs.get(`${queue}:${jobId}`);
    if (existing && (existing.state === 'waiting' || existing.state === 'active')) return 'pending';
    if (existing?.state === 'done' && (existing.finishedAt ?? 0) >= finishedBefore.getTime()) return 'pending';
    this.jobs.delete(`${queue}:${jobId}`);
    await this.add(queue, name, data, { jobId });
    return existing?.state === 'failed' ? 'retried' : 'added';
  }

  async pending(queue: string, jobId: string): Promise<{ data: unknown; runAt: Date } | undefined> {
    const job = this.jobs.get(`${queue}:${jobId}`);
    return job && job.state === 'waiting' ? { data: job.data, runAt: new Date(job.runAt) } : undefined;
  }

  /** Resolves once nothing is running or due; delayed jobs further out do not count. */
  async drain(horizonMs = 0): Promise<void> {
    for (;;) {
      const due = [...this.jobs.values()].some((j) => j.state === 'waiting' && j.runAt <= Date.now() + horizonMs);
      if (this.active.size === 0 && !due) return;
      await Promise.race([...this.active, new Promise((r) => setTimeout(r, 10))]);
    }
  }

  /** Jobs held in memory, per queue and state (for the queue_jobs metric). */
  async depths(): Promise<{ queue: string; state: string; count: number }[]> {
    const counts = new Map<string, number>();
    for (const queue of this.definitions.keys()) for (const state of ['waiting', 'active', 'failed']) counts.set(`${queue}\u0000${state}`, 0);
    for (const job of this.jobs.values()) {
      if (job.state === 'done') continue;
      const key = `${job.queue}\u0000${job.state}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return [...counts].map(([key, count]) => {
      const [queue, state] = key.split('\u0000') as [string, string];
      return { queue, state, count };
    });
  }

  /** Stops starting jobs (due or retrying) and waits for the running ones to finish. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.jobs.values()) clearTimeout(job.timer);
    await Promise.allSettled([...this.active]);
  }

  private definition(queue: string): QueueDefinition {
    const definition = this.definitions.get(queue);
    if (!definition) throw new Error(`Unknown queue "${queue}"`);
    return definition;
  }

  private schedule(job: InlineJob): void {
    if (this.closed || !this.processors.has(job.queue)) return;
    const delay = Math.max(0, job.runAt - Date.now());
    job.timer = setTimeout(() => {
      job.timer = undefined;
      const run = this.run(job).finally(() => this.active.delete(run));
      this.active.add(run);
    }, delay);
    job.timer.unref?.();
  }

  private async run(job: InlineJob): Promise<void> {
    const processor = this.processors.get(job.queue)!;
    job.state = 'active';
    const context: JobContext = { id: job.id, name: job.name, data: job.data, attempt: job.attempt, maxAttempts: job.maxAttempts };
    try {
      await processor.process(context);
      job.state = 'done';
      job.finishedAt = Date.now();
    } catch (error) {
      // Our own outage does not spend an attempt (see OUTAGE_RETRY_MS), within a bound.
      const uncounted = isOwnOutage(error) && job.uncountedTries < OUTAGE_RETRY_LIMIT;
      const retry = uncounted || (isRetryable(error) && job.attempt < job.maxAttempts);
      this.logger.warn({ queue: job.queue, jobId: job.id, attempt: job.attempt, retry, err: (error as Error).message }, 'job failed');
      if (!retry) {
        job.state = 'failed';
        return;
      }
      job.state = 'waiting';
      if (uncounted) {
        job.uncountedTries += 1;
        job.runAt = Date.now() + OUTAGE_RETRY_MS;
      } else {
        job.attempt += 1;
        job.runAt = Date.now() + retryDelay(this.definition(job.queue).backoffMs, job.attempt - 1, error);
      }
      this.schedule(job);
    }
  }
}
