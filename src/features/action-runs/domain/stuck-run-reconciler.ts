/**
 * The sweep for action runs whose job the queue forgot: a run still `running` or
 * `retrying` past the reconciliation bound (Redis lost its data, or the job gave up during
 * an outage) is handed back to the feature that performs it (its RunReplayer's `jobsFor`),
 * which names the job under its deterministic id. The reconciliation sweep re-enqueues it
 * only when the queue holds no waiting, delayed or running job of that id, and the job
 * performs one more attempt on the same run: a step the counterpart already acknowledged
 * is never performed again (ActionRunner), so the run completes once.
 */
import type { OutboxMessage } from '../../../kernel/outbox';
import type { Reconciler } from '../../operations/domain/reconciler';
import type { ActionRun, ActionRunRepository } from './action-run';
import type { RunReplayer } from './run-retries';

export class StuckRunReconciler implements Reconciler {
  readonly name = 'action_runs';

  constructor(
    private readonly runs: ActionRunRepository,
    private readonly replayers: () => readonly RunReplayer[],
  ) {}

  async findStuck(olderThan: Date, limit: number): Promise<OutboxMessage[]> {
    const stuck = await this.runs.unfinished(olderThan, limit);
    const messages: OutboxMessage[] = [];
    for (const replayer of this.replayers()) {
      const mine: ActionRun[] = stuck.filter((run) => replayer.actions.includes(run.action));
      if (mine.length > 0 && replayer.jobsFor) messages.push(...(await replayer.jobsFor(mine)));
    }
    // Two runs of one job (email and SMS steps of one reminder) name it once.
    return [...new Map(messages.map((m) => [`${m.queue}:${m.jobId}`, m])).values()];
  }
}
