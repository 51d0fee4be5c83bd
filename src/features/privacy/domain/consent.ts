/**
 * A consent record: what a candidate agreed to share, with whom, when. Written with the
 * authorization it records (one transaction), ended when the provider says the grant is
 * gone. `statement` is the plugin's wording of the request (organization, listing, the
 * scopes granted); the provider shows its own consent page for the same request.
 */
export interface ConsentGrant {
  organizationName: string;
  listingTitle: string;
  /** Granted by the provider (its token answer's `scope`), else the scopes requested. */
  scopes: readonly string[];
  statement: string;
}

export interface ConsentRecord extends ConsentGrant {
  id: string;
  organizationId: string;
  profileUserId: string;
  listingId: string;
  grantedAt: Date;
  revokedAt: Date | null;
  /** `revoked_at_provider`: a refresh answered invalid_grant (the candidate removed the grant there). */
  revokedReason: string | null;
}

export function consentGrant(input: { organizationName: string; listingTitle: string; scopes: readonly string[] }): ConsentGrant {
  const scopes = input.scopes.length > 0 ? input.scopes.join(', ') : 'the provider default';
  const organization = input.organizationName || 'the organization';
  return {
    ...input,
    statement: `I share my profile (verified skills, credentials and work history; scopes: ${scopes}) with ${organization} to apply to "${input.listingTitle}".`,
  };
}

export interface ConsentRepository {
  /** Newest first. */
  list(organizationId: string, profileUserId: string): Promise<ConsentRecord[]>;
}

export const CONSENT_REPOSITORY = Symbol('ConsentRepository');
