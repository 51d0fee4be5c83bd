/**
 * An action run: one connector step a gated handler performed for an organization (an
 * email, an SMS, a meeting), keyed by the step's idempotency key. Each try is an attempt
 * recorded before the counterpart is called; the run is `succeeded` only once the
 * counterpart acknowledged (its reference is kept), `retrying` after a transient failure,
 * `failed` with a stable code after a permanent one. It holds no candidate data.
 */
import type { DeliveryState } from '../../../kernel/delivery/delivery-state';
export type ActionRunStatus = 'running' | 'retrying' | 'succeeded' | 'failed';

/** The run's place in the delivery engine's state machine (kernel/delivery): runs have no `pending`, and an exhausted run is `failed`. */
export const runDeliveryState = (run: Pick<ActionRun, 'status' | 'attempts'>): DeliveryState => ({
  status: run.status,
  attempts: run.attempts.length,
  window: 0,
});

/** An engine state as a run's status (`exhausted` and `canceled` runs are `failed`; `pending` is `running`). */
export function runStatusOf(state: DeliveryState): ActionRunStatus {
  switch (state.status) {
    case 'exhausted':
    case 'canceled':
      return 'failed';
    case 'pending':
      return 'running';
    default:
      return state.status;
  }
}

export interface RunAttempt {
  number: number;
  startedAt: Date;
  endedAt: Date | null;
  outcome: 'pending' | 'succeeded' | 'transient_error' | 'permanent_error';
  errorCode: string | null;
}

export interface ActionRun {
  id: string;
  organizationId: string;
  idempotencyKey: string;
  action: string;
  /** The hook whose handler performs the step (interview.scheduled, …); null when unknown. */
  hook: string | null;
  /** The connector port the step used: email, sms, video_meetings, hris, …. */
  step: string;
  /** Which implementation ran it: smtp, host, sandbox, … */
  connector: string;
  connectionId: string | null;
  livemode: boolean;
  status: ActionRunStatus;
  attempts: RunAttempt[];
  reference: string | null;
  /** What the counterpart answered (ids, URLs; never candidate data): a retried step answers it again. */
  result: Record<string, unknown> | null;
  errorCode: string | null;
  errorMessage: string | null;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
}

export interface RunStart {
  organizationId: string;
  idempotencyKey: string;
  action: string;
  hook?: string | null;
  step: string;
  connector: string;
  connectionId: string | null;
  livemode: boolean;
}

export interface RunFilter {
  action?: string;
  hook?: string;
  status?: ActionRunStatus;
  createdGte?: Date;
  createdLt?: Date;
  limit: number;
  startingAfter?: string;
}

/** How the latest attempt of a run ended, and the run's status after it. */
export interface AttemptResult {
  status: ActionRunStatus;
  outcome: RunAttempt['outcome'];
  reference?: string;
  answer?: Record<string, unknown>;
  errorCode?: string;
  errorMessage?: string;
}

export interface ActionRunRepository {
  /**
   * Inserts the run of (organization, idempotency key) if there is none; unless it already
   * succeeded, records a new pending attempt on it. Answers the run as it now stands.
   */
  startAttempt(start: RunStart, at: Date): Promise<ActionRun>;
  finishAttempt(run: ActionRun, result: AttemptResult, at: Date): Promise<ActionRun>;
  find(organizationId: string, id: string): Promise<ActionRun | undefined>;
  list(organizationId: string, filter: RunFilter): Promise<{ data: ActionRun[]; hasMore: boolean }>;
  /** A failed run an organization asked to retry: `failed` → `retrying`; undefined when it was no longer failed. */
  reopen(organizationId: string, id: string, at: Date): Promise<ActionRun | undefined>;
  /** Runs `running` or `retrying` not touched since `before` (the sweep: their job may be lost), oldest first. */
  unfinished(before: Date, limit: number): Promise<ActionRun[]>;
  /** Undoes `reopen` when the step could not be queued again: `retrying` (no new attempt yet) → `failed`. */
  restoreFailed(organizationId: string, id: string, at: Date): Promise<void>;
  /**
   * Deletes up to `limit` completed runs: succeeded before `succeededBefore`, failed before
   * `failedBefore`, none referenced by a record still open. Answers how many went.
   */
  pruneCompleted(succeededBefore: Date, failedBefore: Date, limit: number): Promise<number>;
}

export const ACTION_RUN_REPOSITORY = Symbol('ActionRunRepository');
