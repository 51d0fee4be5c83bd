/**
 * Queue `reconciliation`: one run of the reconciliation sweep (src/features/operations/domain/reconciliation-sweep.ts),
 * started by a BullMQ job scheduler every RECONCILE_INTERVAL_SECONDS.
 *
 * Idempotent: the sweep only reads the database and re-enqueues missing work under its
 * deterministic job ids, leaving queued or running jobs alone; a run repeated after a
 * crash, or running beside another worker's, enqueues nothing twice. One attempt: the next
 * scheduled run is the retry.
 */
import { inject, injectable } from 'tsyringe';
import type { JobProcessor } from '../../../kernel/job-queue';
import { ReconciliationSweep, type SweepReport } from '../domain/reconciliation-sweep';

export const RECONCILIATION_QUEUE = 'reconciliation';

@injectable()
export class ReconciliationSweepProcessor implements JobProcessor {
  readonly queue = RECONCILIATION_QUEUE;

  constructor(@inject(ReconciliationSweep) private readonly sweep: ReconciliationSweep) {}

  async process(): Promise<SweepReport> {
    return this.sweep.run();
  }
}
