/**
 * Listings' requirements with the organization's trust lists already applied, read in one
 * query for many listings (the automatic checks run on the application path).
 */
import type { CredentialRequirement } from '../../listings/domain/credential-requirements';
import { trustKey } from './trusted-issuers';

export interface RequirementsWithTrust {
  /** Listings without requirements are absent. */
  load(organizationId: string, listingIds: string[]): Promise<Map<string, CredentialRequirement[]>>;
  /** The same for employees' roles (by role id). */
  loadRoles(organizationId: string, roleIds: string[]): Promise<Map<string, CredentialRequirement[]>>;
}

export const REQUIREMENTS_WITH_TRUST = Symbol('RequirementsWithTrust');

/** A requirement naming no issuers takes the organization's list for its type (keys: trustKey). */
export function applyTrustLists(requirements: CredentialRequirement[], lists: ReadonlyMap<string, string[]>): CredentialRequirement[] {
  return requirements.map((r) => (r.issuers.length > 0 ? r : { ...r, issuers: lists.get(trustKey(r.credential_type)) ?? [] }));
}
