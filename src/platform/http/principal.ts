/** Who is calling. Resolved once per request by the authenticate middleware. */
export type Principal =
  /** `keyPrefix`: which of the organization's API keys made the call. */
  | { kind: 'organization'; organizationId: string; keyPrefix?: string }
  | { kind: 'operator' }
  | { kind: 'candidate'; organizationId: string; listingId: string; profileUserId: string }
  | { kind: 'public' };

export type CredentialKind = Principal['kind'];

/** One kind of bearer credential. The authenticate middleware asks each in turn. */
export interface CredentialVerifier {
  readonly kind: Exclude<CredentialKind, 'public'>;
  /** Cheap syntactic check: is this token of my kind? */
  recognizes(token: string): boolean;
  /** Resolves the principal or throws an `unauthenticated` DomainError. */
  verify(token: string): Promise<Principal>;
}

export const CREDENTIAL_VERIFIERS = Symbol('CredentialVerifiers');

export function organizationIdOf(principal: Principal): string | undefined {
  return principal.kind === 'organization' || principal.kind === 'candidate' ? principal.organizationId : undefined;
}
