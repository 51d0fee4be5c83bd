/**
 * The port that carries "this entitlement changed" between processes. Adapters
 * (src/entitlements/): Redis pub/sub on a channel namespaced by the queue prefix when
 * Redis is configured, an in-process event emitter in embedded mode (one process).
 *
 * `changed` names one organization's action; `reset` tells listeners that messages may
 * have been missed (the subscriber reconnected), so every cached answer must go.
 */
import type { Disposer } from '../../../kernel/disposer';

export type EntitlementInvalidation = { type: 'changed'; organizationId: string; actionKey: string } | { type: 'reset' };

export interface EntitlementInvalidations {
  /** Tells every other process (and this one's other activations) about a change. */
  publish(change: EntitlementInvalidation): Promise<void>;
  /**
   * Listens to changes published elsewhere (messages this adapter published itself are
   * not delivered back); resolves once listening.
   */
  subscribe(listener: (change: EntitlementInvalidation) => void): Promise<Disposer>;
}

export const ENTITLEMENT_INVALIDATIONS = Symbol('EntitlementInvalidations');
