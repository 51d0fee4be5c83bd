/**
 * The one state machine of a delivery: a webhook delivery (an event for an endpoint) and an
 * action run (a connector step) are both "do this once, against a counterpart that may be
 * down, and say `succeeded` only on its acknowledgment".
 *
 *   pending ──begin──▶ running ──acknowledged──▶ succeeded            (absorbing)
 *   retrying ─begin─▶ running ──transient──▶ retrying | exhausted     (window or tries over)
 *                     running ──permanent──▶ failed
 *   pending | retrying | running ──cancel──▶ canceled                 (nothing is sent any more)
 *   failed | exhausted | canceled ──reopen──▶ retrying                (someone asked to try again)
 *   any final state ──redeliver──▶ pending                            (webhooks: send the event again, a new window)
 *
 * `begin` is recorded before the counterpart is called (so a crash mid-call is an attempt on
 * record, and a repeat knows to dedupe); `running` → `begin` is such a lost attempt taken up
 * again. `attempts` counts begun attempts and never goes down. Only `redeliver` leaves
 * `succeeded`, and it opens a new window (`window` + 1): within one window nothing comes back
 * from `succeeded`. Action runs never redeliver (a step the counterpart acknowledged is never
 * performed again); a webhook receiver dedupes a redelivery on its `webhook-id`.
 *
 * Pure: no clock, no I/O. Storage maps these states to its columns (webhooks keep `pending`
 * for pending/running/retrying and `failed` for exhausted; runs have no `pending`).
 */
export type DeliveryStatus = 'pending' | 'running' | 'retrying' | 'succeeded' | 'failed' | 'exhausted' | 'canceled';

export interface DeliveryState {
  status: DeliveryStatus;
  /** Attempts begun, over every window. */
  attempts: number;
  /** 0 for the first window; `redeliver` opens the next one. */
  window: number;
}

export type DeliveryEvent =
  | { type: 'begin' }
  | { type: 'acknowledged' }
  /** A failure worth trying again; `exhausted` when the retry window (or the tries) is over. */
  | { type: 'transient'; exhausted: boolean }
  | { type: 'permanent' }
  | { type: 'cancel' }
  | { type: 'reopen' }
  | { type: 'redeliver' };

const FINAL: ReadonlySet<DeliveryStatus> = new Set(['succeeded', 'failed', 'exhausted', 'canceled']);

export const isFinal = (status: DeliveryStatus): boolean => FINAL.has(status);

export const initialDelivery = (): DeliveryState => ({ status: 'pending', attempts: 0, window: 0 });

/** The state after `event`, or undefined when the event does not apply (a stale job, a race lost): callers do nothing. */
export function transition(state: DeliveryState, event: DeliveryEvent): DeliveryState | undefined {
  const to = (status: DeliveryStatus, attempts = state.attempts, window = state.window): DeliveryState => ({ status, attempts, window });
  switch (event.type) {
    case 'begin':
      return state.status === 'pending' || state.status === 'retrying' || state.status === 'running' ? to('running', state.attempts + 1) : undefined;
    case 'acknowledged':
      return state.status === 'running' ? to('succeeded') : undefined;
    case 'transient':
      return state.status === 'running' ? to(event.exhausted ? 'exhausted' : 'retrying') : undefined;
    case 'permanent':
      return state.status === 'running' ? to('failed') : undefined;
    case 'cancel':
      return isFinal(state.status) ? undefined : to('canceled');
    case 'reopen':
      return state.status === 'failed' || state.status === 'exhausted' || state.status === 'canceled' ? to('retrying') : undefined;
    case 'redeliver':
      return isFinal(state.status) ? to('pending', state.attempts, state.window + 1) : undefined;
  }
}

/** Applies events in order, ignoring those that do not apply (as storage's conditional updates do). */
export function replay(events: readonly DeliveryEvent[], from: DeliveryState = initialDelivery()): DeliveryState {
  return events.reduce((state, event) => transition(state, event) ?? state, from);
}
