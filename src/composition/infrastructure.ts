/**
 * Infrastructure adapters chosen from configuration: the database (pg or PGlite), the
 * queue (BullMQ or in-process), the rate-limit store, the clock, the logger, and the
 * host's ports (listings, pipeline, hook bus) under the domain's tokens.
 */
import type { DependencyContainer } from 'tsyringe';
import type { Config } from '../kernel/config';
import { JOB_QUEUE, type JobProcessor, type JobQueue, type QueueDefinition } from '../kernel/job-queue';
import { LISTINGS_DIRECTORY } from '../features/listings/domain/listing';
import { PIPELINE } from '../features/applications/domain/pipeline';
import { CLOCK, systemClock } from '../kernel/clock';
import type { DisposerStack } from '../kernel/disposer';
import { EVENT_PUBLISHER, type EventPublisher } from '../kernel/events';
import { LOGGER, type Logger } from '../kernel/logger';
import type { PluginHost } from '../host/contract';
import { MemoryRateLimitStore, rateLimitKeyPrefix, RedisRateLimitStore, type RateLimitStore } from '../platform/http/rate-limit';
import { GATE_METRICS, type GateMetrics } from '../kernel/metrics';
import { METRICS, PluginMetrics } from '../platform/observability/metrics';
import { MeteredJobQueue } from '../platform/queue/metered-queue';
import type { Manifest } from '../platform/manifest/manifest';
import { BullmqJobQueue } from '../platform/queue/bullmq-queue';
import { InlineJobQueue } from '../platform/queue/inline-queue';
import { OutboxRelay } from '../platform/queue/outbox-relay';
import { OUTBOX_NOTIFIER, type OutboxNotifier } from '../kernel/outbox';
import { closeRedis, createRedis, redisTargetOf, type RedisConnection } from '../platform/queue/redis';
import { createDatabase, type Database } from '../platform/database/database';
import { DATABASE } from '../platform/database/tokens';

export const CONFIG = Symbol('Config');
export const MANIFEST = Symbol('Manifest');
export const REDIS = Symbol('Redis');
/** A fail-fast connection for Redis commands a request waits on (see createRedis's `request`). */
export const REDIS_REQUEST = Symbol('RedisRequest');
export const RATE_LIMIT_STORE = Symbol('RateLimitStore');
export const QUEUE_DEFINITIONS = Symbol('QueueDefinitions');
/** The BullMQ adapter when Redis is configured (the job dashboard reads its queues); unregistered otherwise. */
export const BULLMQ_QUEUES = Symbol('BullmqQueues');

/** Starts workers on whichever queue adapter is in use. */
export interface WorkerHost {
  startWorkers(processors: readonly JobProcessor[], concurrency?: number): unknown;
  close(): Promise<void>;
}
export const WORKER_HOST = Symbol('WorkerHost');

export function queueDefinitions(manifest: Manifest): Map<string, QueueDefinition> {
  return new Map(manifest.queues.map((q) => [q.name, { name: q.name, concurrency: q.concurrency, attempts: q.attempts, backoffMs: q.backoffMs }]));
}

export function registerInfrastructure(container: DependencyContainer, host: PluginHost, manifest: Manifest, resources: DisposerStack): void {
  const config = host.config;
  const logger = host.logger;
  container.register<Config>(CONFIG, { useValue: config });
  container.register<Manifest>(MANIFEST, { useValue: manifest });
  container.register<Logger>(LOGGER, { useValue: logger });
  container.register(CLOCK, { useValue: systemClock });

  let db: Database | undefined = host.database;
  if (!db) {
    db = createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: config.databasePoolMax, logger });
    const owned = db;
    resources.add(() => owned.destroy());
  }
  container.register<Database>(DATABASE, { useValue: db });

  const definitions = queueDefinitions(manifest);
  container.register(QUEUE_DEFINITIONS, { useValue: definitions });
  const metrics = new PluginMetrics({ queues: [...definitions.keys()] });
  container.register(METRICS, { useValue: metrics });
  container.register<GateMetrics>(GATE_METRICS, { useValue: metrics });

  let adapter: BullmqJobQueue | InlineJobQueue;
  let rateLimitStore: RateLimitStore;
  const redisTarget = redisTargetOf(config);
  if (redisTarget) {
    const connection = createRedis(redisTarget, 'client', logger);
    container.register<RedisConnection>(REDIS, { useValue: connection });
    const requestConnection = createRedis(redisTarget, 'request', logger);
    container.register<RedisConnection>(REDIS_REQUEST, { useValue: requestConnection });
    resources.add(() => closeRedis(requestConnection));
    const bullmq = new BullmqJobQueue({
      connection,
      workerConnection: () => createRedis(redisTarget, 'worker', logger),
      prefix: config.queuePrefix,
      definitions,
      logger,
      lockDurationMs: config.jobLockDurationMs,
      stalledIntervalMs: config.jobStalledIntervalMs,
    });
    container.register(BULLMQ_QUEUES, { useValue: bullmq });
    adapter = bullmq;
    rateLimitStore = new RedisRateLimitStore(connection, rateLimitKeyPrefix(config.queuePrefix));
    resources.add(() => closeRedis(connection));
  } else {
    adapter = new InlineJobQueue(definitions, logger);
    rateLimitStore = new MemoryRateLimitStore();
  }
  // Both adapters report the same job metrics through one wrapper.
  const queue = new MeteredJobQueue(adapter, metrics);
  metrics.setQueueDepthSource(queue);
  resources.add(() => queue.close());
  container.register<JobQueue>(JOB_QUEUE, { useValue: queue });
  container.register<WorkerHost>(WORKER_HOST, { useValue: queue });
  const relay = new OutboxRelay(db, queue, logger);
  container.register(OutboxRelay, { useValue: relay });
  container.register<OutboxNotifier>(OUTBOX_NOTIFIER, { useValue: relay });
  container.register<RateLimitStore>(RATE_LIMIT_STORE, { useValue: rateLimitStore });

  container.register(LISTINGS_DIRECTORY, { useValue: host.listings });
  container.register(PIPELINE, { useValue: host.pipeline });
  const publisher: EventPublisher = {
    publish: (event, organizationId, payload) => host.hooks.emit(event, organizationId, payload),
  };
  container.register(EVENT_PUBLISHER, { useValue: publisher });
}
