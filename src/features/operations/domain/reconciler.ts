/**
 * A reconciler finds work whose effect is missing although its message was written more
 * than the sweep's bound ago (a job Redis forgot, a job that gave up during an outage),
 * and names the message that produces the effect, with its deterministic job id. The
 * sweep re-enqueues each one; a job that is still waiting or running is left alone.
 *
 * One file per reconciler under `reconcilers/`, listed in `RECONCILER_CLASSES`
 * (src/features/operations/register-reconciliation.ts). A reconciler only reads: it must be safe to run on
 * several processes at once, and its messages must be idempotent jobs.
 */
import type { OutboxMessage } from '../../../kernel/outbox';

export interface Reconciler {
  /** A metrics label: `licenses`, `applications`, … */
  readonly name: string;
  /** At most `limit` messages whose effect is missing and that were written before `olderThan`. */
  findStuck(olderThan: Date, limit: number): Promise<OutboxMessage[]>;
}

export const RECONCILERS = Symbol('Reconcilers');
