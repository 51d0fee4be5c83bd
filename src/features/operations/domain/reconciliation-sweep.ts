/**
 * The reconciliation sweep: asks every reconciler for work whose effect is missing past
 * the bound and re-enqueues it under its deterministic job id. Nothing here writes to the
 * database, and re-enqueueing leaves a waiting or running job alone, so two sweeps at once
 * (several workers) enqueue each job once. Runs as a BullMQ job scheduler on the
 * `reconciliation` queue, or on a timer in embedded mode.
 */
import { Counter, type Registry } from 'prom-client';
import type { JobQueue, RequeueOutcome } from '../../../kernel/job-queue';
import type { Logger } from '../../../kernel/logger';
import type { Reconciler } from './reconciler';

export interface SweepOptions {
  /** Work younger than this is left to its own job and retries. */
  boundMs: number;
  /** Most messages per reconciler and run. */
  batchSize: number;
}

/** Most messages per reconciler in the sweep after a data loss (a whole backlog at once). */
export const DATA_LOSS_BATCH_SIZE = 10_000;

export type SweepReport = Record<string, { found: number } & Partial<Record<RequeueOutcome | 'error', number>>>;

export class ReconciliationSweep {
  private readonly requeued: Counter<'reconciler' | 'outcome'> | undefined;

  constructor(
    private readonly reconcilers: readonly Reconciler[],
    private readonly queue: JobQueue,
    private readonly logger: Logger,
    private readonly options: SweepOptions,
    registry?: Registry,
  ) {
    if (registry) {
      this.requeued = new Counter({
        name: 'hiring_integrations_reconciled_total',
        help: 'Work found by the reconciliation sweep with its effect missing, by reconciler and outcome (added, retried, pending: already queued, error)',
        labelNames: ['reconciler', 'outcome'],
        registers: [registry],
      });
    }
  }

  /**
   * After Redis lost its data (RedisDataLossWatch): every piece of work whose effect is
   * missing is re-enqueued now, whatever its age; what still waits or runs in Redis (written
   * since its return) is left alone as always. Rejects when some work could not be
   * re-enqueued (Redis flapping), so the watch tries the whole sweep again at its next check.
   */
  async runAfterDataLoss(now = new Date()): Promise<SweepReport> {
    const report = await this.run(now, { boundMs: 0, batchSize: DATA_LOSS_BATCH_SIZE });
    const failed = Object.values(report).reduce((n, counts) => n + (counts.error ?? 0), 0);
    if (failed > 0) throw new Error(`${failed} piece(s) of work could not be re-enqueued after Redis lost its data`);
    return report;
  }

  async run(now = new Date(), options: SweepOptions = this.options): Promise<SweepReport> {
    const olderThan = new Date(now.getTime() - options.boundMs);
    const report: SweepReport = {};
    for (const reconciler of this.reconcilers) {
      const stuck = await reconciler.findStuck(olderThan, options.batchSize);
      const counts: SweepReport[string] = { found: stuck.length };
      for (const message of stuck) {
        let outcome: RequeueOutcome | 'error';
        try {
          outcome = await this.queue.requeue(message.queue, message.name, message.data, message.jobId, olderThan);
        } catch (error) {
          outcome = 'error';
          this.logger.warn({ reconciler: reconciler.name, jobId: message.jobId, err: (error as Error).message }, 'reconciliation could not re-enqueue');
        }
        counts[outcome] = (counts[outcome] ?? 0) + 1;
        this.requeued?.inc({ reconciler: reconciler.name, outcome });
      }
      report[reconciler.name] = counts;
    }
    const acted = Object.values(report).some((c) => (c.added ?? 0) + (c.retried ?? 0) + (c.error ?? 0) > 0);
    if (acted) this.logger.warn({ report, boundMs: options.boundMs }, 'reconciliation sweep re-enqueued work whose effect was missing');
    else this.logger.debug({ report }, 'reconciliation sweep found nothing missing');
    return report;
  }
}
