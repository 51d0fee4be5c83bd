/**
 * Where entitlements are read from when the cache does not know: the licensing area's
 * answer (an active license, any source). The composition root registers the licensing
 * module's ENTITLEMENTS under this token; tests may register their own.
 */
export interface EntitlementSource {
  isActive(organizationId: string, actionKey: string): Promise<boolean>;
}

export const ENTITLEMENT_SOURCE = Symbol('EntitlementSource');
