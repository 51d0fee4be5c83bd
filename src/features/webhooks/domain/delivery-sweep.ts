/**
 * Re-enqueues webhook deliveries that are due but have no job: Redis lost them (a restart
 * without persistence), or the process holding them in memory (embedded mode) stopped.
 * The delivery rows are the truth; `dueButNotQueued` finds pending rows past their time
 * plus a grace, not being sent and without a waiting outbox message, and each moves to a
 * new job number, so a late original finds itself stale. Also prunes events past their
 * retention. The sweep contract and its loop are the delivery engine's (kernel/delivery/periodic-sweep.ts). Runs in every process (concurrent sweeps are safe: `reenqueue` is a
 * compare-and-set on the job number); a general reconciliation sweep can call `runOnce`.
 */
import type { EventLog } from '../../events/domain/event';
import type { Clock } from '../../../kernel/clock';
import type { Logger } from '../../../kernel/logger';
import type { WebhookDeliveryRepository } from './webhook-delivery';
import { PeriodicSweep } from '../../../kernel/delivery/periodic-sweep';

export interface SweepOptions {
  intervalMs: number;
  graceMs: number;
  retentionDays: number;
  batchSize?: number;
}

export class WebhookDeliverySweep {
  private lastPrunedAt = 0;

  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly events: EventLog,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: SweepOptions,
  ) {}

  /** One pass; returns how many deliveries got a new job. */
  async runOnce(): Promise<number> {
    const now = this.clock.now();
    const due = await this.deliveries.dueButNotQueued(now, this.options.graceMs, this.options.batchSize ?? 500);
    let requeued = 0;
    for (const delivery of due) if (await this.deliveries.reenqueue(delivery.id, delivery.jobSeq, now)) requeued += 1;
    if (requeued > 0) this.logger.warn({ requeued }, 'webhook deliveries were due without a job; enqueued again');
    if (now.getTime() - this.lastPrunedAt > 10 * 60_000) {
      this.lastPrunedAt = now.getTime();
      await this.events.prune(new Date(now.getTime() - this.options.retentionDays * 86_400_000));
    }
    return requeued;
  }

  start(): () => Promise<void> {
    return new PeriodicSweep('webhook delivery sweep', () => this.runOnce(), this.options.intervalMs, this.logger).start();
  }
}
