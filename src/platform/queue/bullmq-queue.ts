/**
 * Production adapter: BullMQ queues on Redis. Queue keys carry a hash-tagged prefix so
 * every key of a queue lands in one Redis Cluster slot. Workers are started only by the
 * worker role (or explicitly by tests); the API process only produces.
 */
import { DelayedError, Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { BatchJob, JobOptions, JobProcessor, JobQueue, QueueDefinition, RequeueOutcome, StoredJob } from '../../kernel/job-queue';
import { isAvailabilityError } from '../../kernel/availability';
import type { Logger } from '../../kernel/logger';
import { isOwnOutage, isRetryable, OUTAGE_AWARE_BACKOFF, OUTAGE_RETRY_LIMIT, OUTAGE_RETRY_MS, retryDelay } from './retry-policy';
import { closeRedis, onDuplicate, whenSettled, type RedisConnection } from './redis';

/** Longest a request waits on a queue command. */
const REQUEST_WAIT_MS = 1_000;

/**
 * How long close() lets a worker's connections come back before closing it without
 * BullMQ's wait (see close()). Longer than ioredis' longest pause between reconnection
 * attempts (2 s), so a Redis that is up again is found up.
 */
const RECONNECT_WAIT_MS = 3_000;

interface RunningWorker {
  worker: Worker;
  /** The worker's own connection, and the copies BullMQ made of it (its blocking connection). */
  connections: RedisConnection[];
  /** Processor calls that have not returned yet. */
  inFlight: Set<Promise<unknown>>;
}

export interface BullmqOptions {
  connection: RedisConnection;
  /** Worker connections need blocking commands; a factory gives each worker its own. */
  workerConnection: () => RedisConnection;
  prefix: string;
  definitions: ReadonlyMap<string, QueueDefinition>;
  logger: Logger;
  /** Worker lock and stalled-job check; BullMQ's defaults (30 s each) when unset. */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
}

/**
 * Only the options given: an explicit `attempts: undefined` would override the queue's
 * default attempts (BullMQ spreads job options over the defaults), and the job would never
 * be retried.
 */
function bullmqOptions(options: JobOptions): { jobId?: string; delay?: number; attempts?: number } {
  const jobOptions: { jobId?: string; delay?: number; attempts?: number } = {};
  if (options.jobId !== undefined) jobOptions.jobId = options.jobId;
  if (options.delayMs !== undefined) jobOptions.delay = options.delayMs;
  if (options.attempts !== undefined) jobOptions.attempts = options.attempts;
  return jobOptions;
}

export class BullmqJobQueue implements JobQueue {
  private readonly queues = new Map<string, Queue>();
  private readonly workers: RunningWorker[] = [];

  constructor(private readonly options: BullmqOptions) {}

  queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      const definition = this.definition(name);
      queue = new Queue(name, {
        connection: this.options.connection,
        prefix: this.options.prefix,
        defaultJobOptions: {
          attempts: definition.attempts,
          backoff: { type: OUTAGE_AWARE_BACKOFF, delay: definition.backoffMs },
          removeOnComplete: { age: 24 * 3600, count: 10_000 },
          removeOnFail: { age: 7 * 24 * 3600 },
        },
      });
      // Without a listener BullMQ prints connection errors (a Redis outage) to stderr. An outage
      // is logged once by the connection's own outage log (createRedis); anything else here.
      queue.on('error', (error) => {
        if (!isAvailabilityError(error)) this.options.logger.warn({ queue: name, err: error.message }, 'queue connection error');
      });
      this.queues.set(name, queue);
    }
    return queue;
  }

  async add(queue: string, name: string, data: object, options: JobOptions = {}): Promise<void> {
    await this.queue(queue).add(name, data, bullmqOptions(options));
  }

  /** One MULTI for the batch: one Redis round trip instead of one per job. */
  async addBatch(queue: string, jobs: readonly BatchJob[]): Promise<void> {
    if (jobs.length === 0) return;
    await this.queue(queue).addBulk(jobs.map((job) => ({ name: job.name, data: job.data, opts: bullmqOptions(job.options ?? {}) })));
  }

  /**
   * Called while a request waits (a hook that moves a reminder), so bounded: with Redis away
   * it gives up after REQUEST_WAIT_MS rather than waiting for a reconnect. A removal that
   * lands later is harmless (the job was superseded).
   */
  async remove(queue: string, jobId: string): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('Command timed out: Redis did not answer the job removal')), REQUEST_WAIT_MS);
    });
    try {
      return await Promise.race([this.removeNow(queue, jobId), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async removeNow(queue: string, jobId: string): Promise<boolean> {
    const job = await this.queue(queue).getJob(jobId);
    if (!job) return false;
    const state = await job.getState();
    if (state !== 'delayed' && state !== 'waiting' && state !== 'prioritized') return false;
    await job.remove();
    return true;
  }

  /** Pages through every state; ranges apply per state, so it stops at the first empty page. */
  async findJobs(queue: string, match: (data: unknown) => boolean): Promise<StoredJob[]> {
    const found: StoredJob[] = [];
    const page = 500;
    for (let start = 0; ; start += page) {
      const jobs = await this.queue(queue).getJobs(
        ['waiting', 'delayed', 'prioritized', 'waiting-children', 'active', 'completed', 'failed'],
        start,
        start + page - 1,
        true,
      );
      if (jobs.length === 0) return found;
      for (const job of jobs) if (job?.id && match(job.data)) found.push({ id: job.id, name: job.name, data: job.data, state: await job.getState() });
    }
  }

  async forget(queue: string, jobId: string): Promise<boolean> {
    const job = await this.queue(queue).getJob(jobId);
    if (!job) return true;
    if ((await job.getState()) === 'active') return false;
    try {
      await job.remove();
      return true;
    } catch {
      // Taken by a worker meanwhile (locked): the caller tries again later.
      return false;
    }
  }

  async pending(queue: string, jobId: string): Promise<{ data: unknown; runAt: Date } | undefined> {
    const job = await this.queue(queue).getJob(jobId);
    if (!job) return undefined;
    const state = await job.getState();
    if (state !== 'delayed' && state !== 'waiting' && state !== 'prioritized') return undefined;
    return { data: job.data, runAt: new Date(job.timestamp + (job.delay ?? 0)) };
  }

  async requeue(queue: string, name: string, data: object, jobId: string, finishedBefore: Date): Promise<RequeueOutcome> {
    const job = await this.queue(queue).getJob(jobId);
    if (!job) {
      await this.add(queue, name, data, { jobId });
      return 'added';
    }
    const state = await job.getState();
    const finishedLongAgo = (job.finishedOn ?? 0) < finishedBefore.getTime();
    try {
      if (state === 'failed') {
        await job.retry('failed');
        return 'retried';
      }
      if (state === 'completed' && finishedLongAgo) {
        await job.remove();
        await this.add(queue, name, data, { jobId });
        return 'added';
      }
      if (state === 'unknown') {
        await this.add(queue, name, data, { jobId });
        return 'added';
      }
    } catch (error) {
      // Another sweep moved it first (retry/remove on a job no longer in that state).
      this.options.logger.debug({ queue, jobId, err: (error as Error).message }, 'requeue raced with another process');
    }
    return 'pending';
  }

  /** A repeatable job (BullMQ job scheduler) every `everyMs`; upserting again is a no-op. */
  async schedule(queue: string, schedulerId: string, everyMs: number, name: string): Promise<void> {
    await this.queue(queue).upsertJobScheduler(schedulerId, { every: everyMs }, { name, data: {}, opts: { attempts: 1 } });
  }

  startWorkers(processors: readonly JobProcessor[], concurrencyOverride?: number): Worker[] {
    const started = processors.map((processor) => {
      const definition = this.definition(processor.queue);
      const connection = this.options.workerConnection();
      const connections = [connection];
      // BullMQ duplicates the connection for the worker's blocking reads (in the Worker constructor).
      onDuplicate(connection, (copy) => connections.push(copy));
      const inFlight = new Set<Promise<unknown>>();
      const run = async (job: Job, token: string | undefined) => {
        try {
          return await processor.process({
            id: job.id!,
            name: job.name,
            data: job.data,
            attempt: job.attemptsMade + 1,
            maxAttempts: job.opts.attempts ?? definition.attempts,
          });
        } catch (error) {
          if (!isRetryable(error)) throw new UnrecoverableError((error as Error).message);
          if (await this.retryUncounted(job, token, error)) throw new DelayedError();
          throw error;
        }
      };
      const worker = new Worker(
        processor.queue,
        async (job: Job, token?: string) => {
          const running = run(job, token);
          inFlight.add(running);
          try {
            return await running;
          } finally {
            inFlight.delete(running);
          }
        },
        {
          connection,
          prefix: this.options.prefix,
          concurrency: concurrencyOverride ?? definition.concurrency,
          // The queue's exponential schedule, stretched when the failure was an outage of ours.
          settings: {
            backoffStrategy: (attemptsMade: number, _type?: string, error?: Error, job?: { opts: { backoff?: unknown } }) =>
              retryDelay((job?.opts.backoff as { delay?: number } | undefined)?.delay ?? definition.backoffMs, attemptsMade, error),
          },
          // Only when set: an explicit undefined would replace BullMQ's defaults.
          ...(this.options.lockDurationMs !== undefined ? { lockDuration: this.options.lockDurationMs } : {}),
          ...(this.options.stalledIntervalMs !== undefined ? { stalledInterval: this.options.stalledIntervalMs } : {}),
        },
      );
      worker.on('failed', (job, error) =>
        this.options.logger.warn({ queue: processor.queue, jobId: job?.id, attempt: job?.attemptsMade, err: error.message }, 'job failed'),
      );
      // An outage is logged once by the connections' outage log (createRedis); anything else here.
      worker.on('error', (error) => {
        if (!isAvailabilityError(error)) this.options.logger.error({ queue: processor.queue, err: error.message }, 'worker error');
      });
      this.workers.push({ worker, connections, inFlight });
      return worker;
    });
    return started;
  }

  /**
   * A failure caused by our own outage (the database away, Redis up): the job waits
   * OUTAGE_RETRY_MS and runs again with its attempts untouched (see OUTAGE_RETRY_MS).
   * BullMQ counts a start (`attemptsStarted`) but not a failure for a job moved to delayed;
   * their difference is the uncounted tries so far. False when the move itself failed
   * (Redis away too): then the failure counts, with the outage-aware backoff.
   */
  private async retryUncounted(job: Job, token: string | undefined, error: unknown): Promise<boolean> {
    if (!isOwnOutage(error) || job.attemptsStarted - job.attemptsMade > OUTAGE_RETRY_LIMIT) return false;
    try {
      await job.moveToDelayed(Date.now() + OUTAGE_RETRY_MS, token);
      return true;
    } catch {
      return false;
    }
  }

  /** Jobs per queue and state, as Redis holds them (for the queue_jobs metric). */
  async depths(): Promise<{ queue: string; state: string; count: number }[]> {
    const states = ['waiting', 'active', 'delayed', 'prioritized', 'failed'] as const;
    const out: { queue: string; state: string; count: number }[] = [];
    for (const name of this.options.definitions.keys()) {
      const counts = await this.queue(name).getJobCounts(...states);
      for (const state of states) out.push({ queue: name, state, count: counts[state] ?? 0 });
    }
    return out;
  }

  /**
   * Ordered shutdown: stop workers (they finish in-flight jobs), then the queues. Returns
   * with Redis away too. BullMQ's graceful close interrupts a worker's blocking read by
   * disconnecting that connection and waiting for it to end, and records each job in flight
   * as it finishes; with Redis away neither ever happens (ioredis does not end a connection
   * disconnected while it waits to reconnect, and queued commands wait for Redis). So a
   * worker whose connections are not up within RECONNECT_WAIT_MS is closed without BullMQ's
   * wait, and its jobs in flight are awaited here instead: their work finishes, and since
   * BullMQ could not record them, they run again once their lock expires (processors are
   * idempotent; work whose job Redis lost altogether is found by the sweeps).
   */
  async close(): Promise<void> {
    await Promise.all(this.workers.splice(0).map((running) => this.closeWorker(running)));
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
    this.queues.clear();
  }

  private async closeWorker({ worker, connections, inFlight }: RunningWorker): Promise<void> {
    const up = (await Promise.all(connections.map((connection) => whenSettled(connection, RECONNECT_WAIT_MS)))).every(Boolean);
    if (up) {
      await worker.close();
    } else {
      this.options.logger.warn(
        { queue: worker.name, inFlight: inFlight.size },
        'closing a worker while Redis is unavailable: jobs in flight finish, but are not recorded',
      );
      await worker.close(true);
      await Promise.allSettled([...inFlight]);
    }
    await Promise.all(connections.map((connection) => closeRedis(connection)));
  }

  private definition(queue: string): QueueDefinition {
    const definition = this.options.definitions.get(queue);
    if (!definition) throw new Error(`Unknown queue "${queue}"`);
    return definition;
  }
}
