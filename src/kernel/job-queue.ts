/**
 * The queue port. Domain services enqueue through it; processors in jobs/ implement
 * JobProcessor. Two adapters exist (src/platform/queue/): BullMQ on Redis and in-process.
 */
export interface JobOptions {
  /** Deterministic id: adding a job whose id already exists is a no-op. */
  jobId?: string;
  delayMs?: number;
  /** Total tries including the first; defaults to the queue's definition. */
  attempts?: number;
}

/** One job of a batch (JobQueue.addBatch). */
export interface BatchJob {
  name: string;
  data: object;
  options?: JobOptions;
}

export interface JobQueue {
  add(queue: string, name: string, data: object, options?: JobOptions): Promise<void>;
  /**
   * Adds several jobs to one queue in one round trip. When it rejects, some may have been
   * added: give every job a deterministic id, so adding the batch again is safe.
   */
  addBatch(queue: string, jobs: readonly BatchJob[]): Promise<void>;
  /** Removes a job that has not started yet; false when there was none to remove. */
  remove(queue: string, jobId: string): Promise<boolean>;
  /** Returns the pending job's data and when it runs, if it is still waiting. */
  pending(queue: string, jobId: string): Promise<{ data: unknown; runAt: Date } | undefined>;
  /**
   * For the reconciliation sweep, once the job's effect is found missing: adds the job under
   * its id when the queue has none, retries it when it failed, adds it again when it finished
   * before `finishedBefore`; a waiting, delayed or running job (or one that finished just
   * now) is left alone. Safe to call from several processes at once.
   */
  requeue(queue: string, name: string, data: object, jobId: string, finishedBefore: Date): Promise<RequeueOutcome>;
}

export type RequeueOutcome = 'added' | 'retried' | 'pending';

export interface JobContext<T = unknown> {
  id: string;
  name: string;
  data: T;
  /** 1 on the first try. */
  attempt: number;
  maxAttempts: number;
}

export interface JobProcessor<T = unknown> {
  readonly queue: string;
  process(job: JobContext<T>): Promise<unknown>;
}

/** Thrown by a processor when retrying cannot help (bad input, missing license). */
export class UnrecoverableJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnrecoverableJobError';
  }
}

export interface QueueDefinition {
  name: string;
  concurrency: number;
  attempts: number;
  /** Base of the exponential backoff between tries. */
  backoffMs: number;
}

export const JOB_QUEUE = Symbol('JobQueue');
export const JOB_PROCESSORS = Symbol('JobProcessors');
