/**
 * Housekeeping on every deployment. The reconciliation sweep: with Redis, a BullMQ job scheduler on the
 * `reconciliation` queue (upserted again at every interval by every process, so a Redis
 * that lost its data gets it back within one interval); embedded, a timer in the process.
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
import { ReconciliationSweep } from './domain/reconciliation-sweep';
import { RECONCILIATION_QUEUE, ReconciliationSweepProcessor } from './jobs/reconciliation-sweep';
import { IDEMPOTENCY_STORE, type IdempotencyStore } from '../../platform/http/idempotency';
import { BULLMQ_QUEUES, CONFIG } from '../../composition/infrastructure';
import type { PluginModule } from '../../platform/composition/plugin-module';

/** Every reconciler; add one file under src/features/<name>/storage/ and list it here. */
export const RECONCILER_CLASSES = [LicenseReconciler, ApplicationDeliveryReconciler, InterviewReminderReconciler] as const;

const SCHEDULER_ID = 'reconciliation-sweep';
const PRUNE_EVERY_MS = 10 * 60_000;

function buildSweep(container: DependencyContainer): ReconciliationSweep {
  const config = container.resolve<Config>(CONFIG);
  return new ReconciliationSweep(
    container.resolveAll<Reconciler>(RECONCILERS),
    container.resolve<JobQueue>(JOB_QUEUE),
    container.resolve<Logger>(LOGGER).child({ component: 'reconciliation' }),
    { boundMs: config.reconcileAfterSeconds * 1000, batchSize: 500 },
    container.resolve<PluginMetrics>(METRICS).registry,
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
    // Retention: idempotency keys (and their stored answers) go after 24 hours.
    const idempotency = container.resolve<IdempotencyStore>(IDEMPOTENCY_STORE);
    const prune = () => void idempotency.prune().catch((error: Error) => logger.warn({ err: error.message }, 'pruning idempotency keys failed'));
    const pruneTimer = setInterval(prune, PRUNE_EVERY_MS);
    pruneTimer.unref();
    return () => {
      clearInterval(timer);
      clearInterval(pruneTimer);
    };
  },
};
