/**
 * What the apply path asks of talent rediscovery (sourcing.source_candidates): an
 * invitation's signed `source` is claimed for the application (once), released again when
 * the application is not created after all, and, once it is, the invitation counts as
 * accepted and the candidate's consent to be contacted again (given with the application)
 * is recorded. The sourcing feature implements it; without it no invitation verifies.
 */
export interface InvitationClaim {
  organizationId: string;
  listingId: string;
  profileUserId: string;
  applicationId: string;
  token: string;
}

/** Given with the application: the candidate agreed to be contacted again about other jobs. */
export interface RecontactConsent {
  email: string;
  location: string | null;
  /** The candidate's language given with the application (a BCP 47 tag); the invitation is written in it. */
  language?: string | null;
}

export interface AppliedApplication {
  organizationId: string;
  listingId: string;
  profileUserId: string;
  applicationId: string;
  at: Date;
}

export interface ApplicationSourcing {
  /** Whether `source` is an invitation's token (else a distribution channel's). */
  isInvitation(source: string): boolean;
  /**
   * Claims the invitation for this application and answers the `source` to record
   * (`sourcing`). 400 source_invalid when it does not verify for this listing and candidate,
   * 409 invitation_used, 410 invitation_expired.
   */
  claimInvitation(claim: InvitationClaim): Promise<string>;
  /** The application was not created: the invitation may be used again. */
  releaseInvitation(organizationId: string, applicationId: string): Promise<void>;
  /** The application is stored: an invitation it used is accepted; a consent given with it is recorded. */
  applied(application: AppliedApplication, invited: boolean, recontact: RecontactConsent | undefined): Promise<void>;
}

export const APPLICATION_SOURCING = Symbol('ApplicationSourcing');

export const noApplicationSourcing: ApplicationSourcing = {
  isInvitation: () => false,
  claimInvitation: () => Promise.reject(new Error('no sourcing feature')),
  releaseInvitation: () => Promise.resolve(),
  applied: () => Promise.resolve(),
};
