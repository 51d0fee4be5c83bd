/**
 * The sweep contract for what the queue forgot. The delivery rows are the truth; a job only
 * says "look now", under a deterministic id derived from the row (`webhook-<id>-<job_seq>`,
 * `reminder-<channel>-<org>-<interview>-<revision>`). A sweep finds rows still due (pending,
 * retrying, running) past a grace whose job is gone, and enqueues the job again under that
 * deterministic id (or moves the row to the next id with a compare-and-set), so a late original
 * finds itself stale and an acknowledged delivery is never performed again. Sweeps only read
 * and compare-and-set: several processes may run them at once.
 *
 * `PeriodicSweep` is the loop: one pass every `intervalMs`, never two at once, stopped cleanly.
 * Webhook deliveries run theirs in every process; action runs are swept by the operations
 * reconciliation sweep (a `Reconciler`, same contract, its own loop).
 */
import type { Logger } from '../logger';

export class PeriodicSweep {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly name: string,
    private readonly pass: () => Promise<unknown>,
    private readonly intervalMs: number,
    private readonly logger: Logger,
  ) {}

  /** Starts the loop; the answer stops it and waits for a pass under way. */
  start(): () => Promise<void> {
    const tick = () => {
      this.running = this.pass()
        .catch((error) => this.logger.warn({ err: (error as Error).message }, `${this.name} failed`))
        .finally(() => {
          this.running = undefined;
          if (this.timer) this.timer = setTimeout(tick, this.intervalMs).unref();
        });
    };
    this.timer = setTimeout(tick, this.intervalMs).unref();
    return async () => {
      clearTimeout(this.timer);
      this.timer = undefined;
      await this.running;
    };
  }
}
