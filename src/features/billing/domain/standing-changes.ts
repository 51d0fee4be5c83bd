/**
 * Tells every process that an organization's standing changed (suspended or restored), so
 * each drops its cached entitlements for it: the adapter publishes on the existing
 * entitlement invalidation channel.
 */
export interface StandingChanges {
  changed(organizationId: string): Promise<void>;
}

export const STANDING_CHANGES = Symbol('StandingChanges');
