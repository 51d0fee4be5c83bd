/**
 * Housekeeping on every deployment. The reconciliation sweep: with Redis, a BullMQ job scheduler on the
 * `reconciliation` queue (upserted again at every interval by every process, so a Redis
 * that lost its data gets it back within one interval); embedded, a timer in the process.
 * With Redis, a data-loss watch (RedisDataLossWatch) runs the sweep at once, without its
 * bound, when Redis comes back empty.
 * And retention: expired idempotency keys are pruned every ten minutes by every process.
 */
import type { DependencyContainer } from 'tsyringe';
import type { Config } from '../../kernel/config';
import { JOB_QUEUE, type JobQueue } from '../../kernel/job-queue';
import { LOGGER, type Logger } from '../../kernel/logger';
import { METRICS, type PluginMetrics } from '../../platform/observability/metrics';
import type { BullmqJobQueue } from '../../platform/queue/bullmq-queue';
import { RECONCILERS, type Reconciler } from './domain/reconciler';
import { ApplicationDeliveryReconciler } from '../applications/storage/pipeline-delivery-reconciler';
import { InterviewReminderReconciler } from '../reminders/storage/interview-reminder-reconciler';
import { LicenseReconciler } from '../licensing/storage/provisioning-reconciler';
import { TimesheetPayoutReconciler } from '../payouts/storage/timesheet-payout-reconciler';
import { BackgroundCheckOrderReconciler } from '../background-checks/storage/background-check-order-reconciler';
import { ReconciliationSweep } from './domain/reconciliation-sweep';
import { RECONCILIATION_QUEUE, ReconciliationSweepProcessor } from './jobs/reconciliation-sweep';
import { IDEMPOTENCY_STORE, type IdempotencyStore } from '../../platform/http/idempotency';
import { BULLMQ_QUEUES, CONFIG, REDIS } from '../../composition/infrastructure';
import { RedisDataLossWatch } from '../../platform/queue/redis-data-loss-watch';
import type { RedisConnection } from '../../platform/queue/redis';
import type { PluginModule } from '../../platform/composition/plugin-module';

/** Every reconciler; add one file under src/features/<name>/storage/ and list it here. */
export const RECONCILER_CLASSES = [
  LicenseReconciler,
  ApplicationDeliveryReconciler,
  InterviewReminderReconciler,
  TimesheetPayoutReconciler,
  BackgroundCheckOrderReconciler,
] as const;

const SCHEDULER_ID = 'reconciliation-sweep';
const PRUNE_EVERY_MS = 10 * 60_000;
/** After Redis lost its data, the sweep waits this long for the outbox relay's own hand-over. */
const DATA_LOSS_SWEEP_DELAY_MS = 5_000;

function buildSweep(container: DependencyContainer): ReconciliationSweep {
  const config = container.resolve<Config>(CONFIG);
  return new ReconciliationSweep(
    container.resolveAll<Reconciler>(RECONCILERS),
    container.resolve<JobQueue>(JOB_QUEUE),
    container.resolve<Logger>(LOGGER).child({ component: 'reconciliation' }),
    { boundMs: config.reconcileAfterSeconds * 1000, batchSize: 500 },
    container.resolve<PluginMetrics>(METRICS),
  );
}

export const reconciliationModule: PluginModule = {
  name: 'reconciliation',
  register(container) {
    for (const reconciler of RECONCILER_CLASSES) container.register<Reconciler>(RECONCILERS, { useClass: reconciler });
    let sweep: ReconciliationSweep | undefined;
    container.register(ReconciliationSweep, { useFactory: (c) => (sweep ??= buildSweep(c)) });
  },
  processors: (container) => [container.resolve(ReconciliationSweepProcessor)],
  async start(container, context) {
    const everyMs = context.config.reconcileIntervalSeconds * 1000;
    const logger = context.logger.child({ component: 'reconciliation' });
    const bullmq = container.isRegistered(BULLMQ_QUEUES) ? container.resolve<BullmqJobQueue>(BULLMQ_QUEUES) : undefined;
    const tick = bullmq
      ? () => bullmq.schedule(RECONCILIATION_QUEUE, SCHEDULER_ID, everyMs, 'sweep')
      : () =>
          container
            .resolve(ReconciliationSweep)
            .run()
            .then(() => undefined);
    let running = false;
    const run = () => {
      if (running) return;
      running = true;
      tick()
        .catch((error: Error) => logger.warn({ err: error.message }, bullmq ? 'could not schedule the reconciliation sweep' : 'reconciliation sweep failed'))
        .finally(() => (running = false));
    };
    if (bullmq) run();
    const timer = setInterval(run, everyMs);
    timer.unref();
    // Redis lost its data: re-enqueue what it forgot now, not after the sweep's bound. First
    // the outbox relay hands over what it still holds (it reconnects at the same moment), so
    // the sweep only adds what nobody else will.
    const stopWatch = bullmq
      ? new RedisDataLossWatch(
          container.resolve<RedisConnection>(REDIS),
          `${context.config.queuePrefix}:redis-epoch`,
          async () => {
            await new Promise((resolve) => setTimeout(resolve, DATA_LOSS_SWEEP_DELAY_MS).unref());
            await container.resolve(ReconciliationSweep).runAfterDataLoss();
          },
          logger,
        ).start()
      : () => undefined;
    // Retention: idempotency keys (and their stored answers) go after 24 hours.
    const idempotency = container.resolve<IdempotencyStore>(IDEMPOTENCY_STORE);
    const prune = () => void idempotency.prune().catch((error: Error) => logger.warn({ err: error.message }, 'pruning idempotency keys failed'));
    const pruneTimer = setInterval(prune, PRUNE_EVERY_MS);
    pruneTimer.unref();
    return () => {
      clearInterval(timer);
      clearInterval(pruneTimer);
      stopWatch();
    };
  },
};
