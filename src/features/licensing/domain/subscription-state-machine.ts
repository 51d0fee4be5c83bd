/**
 * The subscription state machine, pure. A subscription provisions its licenses as one
 * unit: it becomes `active` when every license is active and `failed` as soon as one
 * fails (its other licenses are then deactivated). Canceling is allowed from any state
 * but `canceled`, so a failed subscription can be cleaned up by unsubscribing.
 *
 *   (none) ──subscribe──▶ provisioning ──all_active──▶ active ──cancel──▶ canceled
 *                             │ └──cancel──▶ canceled                        ▲
 *                             └──any_failed──▶ failed ──cancel──────────────┘
 */
import { conflict } from '../../../kernel/errors';
import type { LicenseStatus } from './license';
import type { SubscriptionStatus } from './subscription';

export type SubscriptionEvent = 'all_active' | 'any_failed' | 'cancel';

const TRANSITIONS: Record<SubscriptionStatus, Partial<Record<SubscriptionEvent, SubscriptionStatus>>> = {
  provisioning: { all_active: 'active', any_failed: 'failed', cancel: 'canceled' },
  active: { cancel: 'canceled' },
  failed: { cancel: 'canceled' },
  canceled: {},
};

export function nextSubscriptionStatus(from: SubscriptionStatus, event: SubscriptionEvent): SubscriptionStatus | undefined {
  return TRANSITIONS[from][event];
}

export function requireSubscriptionTransition(from: SubscriptionStatus, event: SubscriptionEvent): SubscriptionStatus {
  const next = nextSubscriptionStatus(from, event);
  if (!next) throw conflict('invalid_subscription_state', `A ${from} subscription cannot ${event.replace('_', ' ')}`);
  return next;
}

/**
 * What the children's states say about the parent: `any_failed` as soon as one failed,
 * `all_active` when every one is active, nothing while some are still provisioning.
 */
export function settleFromChildren(children: readonly { status: LicenseStatus }[]): SubscriptionEvent | undefined {
  if (children.length === 0) return undefined;
  if (children.some((c) => c.status === 'failed')) return 'any_failed';
  if (children.every((c) => c.status === 'active')) return 'all_active';
  return undefined;
}
