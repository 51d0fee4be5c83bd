/**
 * An invitation to apply to a listing, sent to a candidate of the talent pool by email with
 * a signed apply link. It is usable once, by that candidate, for that listing, until it
 * expires: the application that follows records `source: "sourcing"` and the invitation
 * records the application.
 */
export interface Invitation {
  id: string;
  organizationId: string;
  listingId: string;
  profileUserId: string;
  /** The email's action run. */
  runId: string | null;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
  applicationId: string | null;
}

export const INVITATION_TTL_MS = 30 * 86_400_000;

export type ClaimOutcome = 'claimed' | 'used' | 'expired' | 'unknown';

export interface InvitationRepository {
  create(invitation: Invitation): Promise<void>;
  /** The email failed: the invitation never existed for the candidate. */
  delete(organizationId: string, id: string): Promise<void>;
  setRun(organizationId: string, id: string, runId: string): Promise<void>;
  find(organizationId: string, id: string): Promise<Invitation | undefined>;
  /** Marks it used by the application in one statement (only if unused, unexpired, this candidate and listing). */
  claim(claim: { organizationId: string; id: string; listingId: string; profileUserId: string; applicationId: string }, now: Date): Promise<ClaimOutcome>;
  release(organizationId: string, applicationId: string): Promise<void>;
}

export const INVITATION_REPOSITORY = Symbol('InvitationRepository');
