/**
 * Performs one connector step as an action run, on the delivery engine (kernel/delivery): the attempt is on record before the
 * counterpart is called; an acknowledged step is `succeeded` with the counterpart's
 * reference and is never performed again for the same idempotency key (a retried job gets
 * the recorded answer); a transient failure (`upstream`) leaves the run `retrying` and is
 * rethrown for the queue's backoff; anything else fails the run at once with its code.
 * Outcomes are published as action_run.succeeded / action_run.failed and counted.
 */
import { DomainError, isDomainError, upstream } from '../../../kernel/errors';
import type { EventPublisher } from '../../../kernel/events';
import type { Logger } from '../../../kernel/logger';
import { classifyFailure } from '../../../kernel/delivery/failure';
import { settleAttempt } from '../../../kernel/delivery/settle-attempt';
import type { ActionRun, ActionRunRepository, RunStart } from './action-run';

export interface RunMetrics {
  observe(connector: string, outcome: 'succeeded' | 'transient_error' | 'permanent_error', seconds: number): void;
}

export interface StepAnswer {
  reference?: string;
  /** Recorded on the run and answered again to a retry of a step that already succeeded. */
  answer?: Record<string, unknown>;
}

export class ActionRunner {
  constructor(
    private readonly runs: ActionRunRepository,
    private readonly events: EventPublisher,
    private readonly logger: Logger,
    private readonly now: () => Date,
    private readonly metrics?: RunMetrics,
  ) {}

  /** Runs `step` unless the run already succeeded; answers the run (its reference) either way. */
  async perform(start: RunStart, step: () => Promise<StepAnswer>): Promise<ActionRun> {
    const run = await this.runs.startAttempt(start, this.now());
    if (run.status === 'succeeded') return run;
    const started = Date.now();
    let answer: StepAnswer;
    try {
      answer = await step();
    } catch (error) {
      // The delivery engine decides: transient (retrying, the queue's backoff tries again) or permanent (failed now).
      const verdict = classifyFailure(error);
      const settled = settleAttempt({ kind: 'failure', verdict }, { attempt: run.attempts.length, now: this.now() });
      const transient = settled.status === 'retrying';
      this.metrics?.observe(start.connector, transient ? 'transient_error' : 'permanent_error', (Date.now() - started) / 1000);
      const finished = await this.runs.finishAttempt(
        run,
        {
          status: transient ? 'retrying' : 'failed',
          outcome: transient ? 'transient_error' : 'permanent_error',
          errorCode: verdict.code,
          errorMessage: verdict.message,
        },
        this.now(),
      );
      if (!transient) await this.announce('action_run.failed', finished);
      // Callers (jobs) retry `upstream` errors only: a foreign error becomes one of ours.
      if (isDomainError(error)) throw error;
      throw transient ? upstream(verdict.code, verdict.message) : new DomainError('conflict', verdict.code, verdict.message);
    }
    this.metrics?.observe(start.connector, 'succeeded', (Date.now() - started) / 1000);
    const finished = await this.runs.finishAttempt(
      run,
      {
        status: 'succeeded',
        outcome: 'succeeded',
        ...(answer.reference ? { reference: answer.reference } : {}),
        ...(answer.answer ? { answer: answer.answer } : {}),
      },
      this.now(),
    );
    await this.announce('action_run.succeeded', finished);
    return finished;
  }

  private async announce(event: 'action_run.succeeded' | 'action_run.failed', run: ActionRun): Promise<void> {
    try {
      await this.events.publish(event, run.organizationId, runEventPayload(run), { dedupeKey: `${event}:${run.id}` });
    } catch (error) {
      this.logger.warn({ event, runId: run.id, err: (error as Error).message }, 'publishing an action run event failed');
    }
  }
}

export function runEventPayload(run: ActionRun) {
  return {
    run_id: run.id,
    action: run.action,
    step: run.step,
    connector: run.connector,
    status: run.status,
    livemode: run.livemode,
    attempts: run.attempts.length,
    reference: run.reference,
    error_code: run.errorCode,
  };
}
