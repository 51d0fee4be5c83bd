/**
 * Retention of action runs, as Stripe and Twilio keep their request and message logs: a
 * succeeded run is kept ACTION_RUN_RETENTION_DAYS after it completed (default 90), a failed
 * one ACTION_RUN_FAILED_RETENTION_DAYS (default 180: it is what an organization investigates
 * or retries). A run still running or retrying is never due, nor one a record still open
 * refers to (storage/live-run-references.ts). Availability sync alone records ~288 runs a
 * day per followed calendar, so the daily retention pass deletes in batches: short
 * statements that lock only the rows they delete.
 */
import type { OperationalRecordPruner } from '../../privacy/domain/operational-retention';
import type { ActionRunRepository } from './action-run';

export interface RunRetentionDays {
  succeededDays: number;
  failedDays: number;
}

const DAY_MS = 86_400_000;

export class RunRetention implements OperationalRecordPruner {
  readonly name = 'action_runs';

  constructor(
    private readonly runs: ActionRunRepository,
    private readonly days: RunRetentionDays,
    /** Rows per statement, and how many statements one pass may take (the rest waits for tomorrow's). */
    private readonly batch = { size: 500, maxBatches: 2000 },
  ) {}

  async prune(asOf: Date): Promise<number> {
    const succeededBefore = new Date(asOf.getTime() - this.days.succeededDays * DAY_MS);
    const failedBefore = new Date(asOf.getTime() - this.days.failedDays * DAY_MS);
    let pruned = 0;
    for (let i = 0; i < this.batch.maxBatches; i += 1) {
      const deleted = await this.runs.pruneCompleted(succeededBefore, failedBefore, this.batch.size);
      pruned += deleted;
      if (deleted < this.batch.size) break;
    }
    return pruned;
  }
}
