/**
 * `POST /v1/integrations/runs/{id}/retry`: an organization re-runs a failed run (it fixed
 * the connection, the recipient, …). The run keeps its id and idempotency key, so the
 * retry is one more attempt on the same row, and a step the counterpart already
 * acknowledged is never performed twice.
 *
 *   failed              → `retrying`, the feature that performed it queues the step again
 *   retrying / running  → answered as it stands (a retry is already under way: idempotent)
 *   succeeded           → 409 run_succeeded
 *   no replayer         → 409 run_not_retryable (nothing here can perform that action again)
 *   source gone         → 409 run_not_retryable (e.g. the interview was canceled since, or the
 *                         run came from a host hook that only the host can fire again)
 */
import { conflict, notFound } from '../../../kernel/errors';
import type { OutboxMessage } from '../../../kernel/outbox';
import type { ActionRun, ActionRunRepository } from './action-run';

/** A feature that performs runs of some actions and can queue one again. */
export interface RunReplayer {
  readonly actions: readonly string[];
  /** Queues the step of a reopened run again (same idempotency key); false when it cannot (what it was for is gone, or only the host's hook starts it). */
  replay(run: ActionRun): Promise<boolean>;
  /**
   * For the sweep (ActionRunReconciler): the jobs that perform these runs' step, under
   * their deterministic ids, for runs `running`/`retrying` whose job the queue may have lost
   * (Redis died). Leave out runs whose source is gone. The sweep re-enqueues a job only
   * when the queue no longer holds it, and a run that succeeded is never performed again.
   */
  jobsFor?(runs: readonly ActionRun[]): Promise<OutboxMessage[]>;
}

export const RUN_REPLAYER = Symbol('RunReplayer');

export class RunRetries {
  constructor(
    private readonly runs: ActionRunRepository,
    private readonly replayers: () => readonly RunReplayer[],
    private readonly now: () => Date,
  ) {}

  async retry(organizationId: string, runId: string): Promise<ActionRun> {
    const run = await this.runs.find(organizationId, runId);
    if (!run) throw notFound('action run', runId);
    if (run.status === 'succeeded') throw conflict('run_succeeded', `The run '${runId}' succeeded: there is nothing to retry`);
    if (run.status !== 'failed') return run;
    const replayer = this.replayers().find((r) => r.actions.includes(run.action));
    if (!replayer) throw conflict('run_not_retryable', `Runs of '${run.action}' cannot be retried here`);
    const reopened = await this.runs.reopen(organizationId, runId, this.now());
    // Another request reopened it first: answer the run as that retry left it.
    if (!reopened) return (await this.runs.find(organizationId, runId)) ?? run;
    let queued = false;
    try {
      queued = await replayer.replay(reopened);
    } finally {
      if (!queued) await this.runs.restoreFailed(organizationId, runId, this.now());
    }
    if (!queued)
      throw conflict(
        'run_not_retryable',
        `The run '${runId}' cannot be queued again: what it was performed for is gone (canceled or replaced), or the host's hook started it (fire the hook again)`,
      );
    return reopened;
  }
}
