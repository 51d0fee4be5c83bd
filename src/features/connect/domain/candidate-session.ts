/**
 * The candidate session port: a short-lived credential the connect callback hands the
 * widget, bound to (organization, listing, candidate). src/security signs it.
 */
export interface CandidateSessionBinding {
  organizationId: string;
  listingId: string;
  profileUserId: string;
}

export interface IssuedCandidateSession {
  token: string;
  expiresAt: Date;
}

export const CANDIDATE_SESSION_TTL_SECONDS = 30 * 60;

export interface CandidateSessions {
  issue(binding: CandidateSessionBinding): IssuedCandidateSession;
  /** The binding of a valid, unexpired token; throws `unauthenticated` otherwise. */
  verify(token: string): CandidateSessionBinding;
}

export const CANDIDATE_SESSIONS = Symbol('CandidateSessions');
