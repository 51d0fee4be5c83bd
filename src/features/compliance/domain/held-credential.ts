/**
 * A credential a candidate holds for one requirement of a listing, tracked until it expires:
 * one per person, listing and requirement (a renewal replaces it and its notices start over).
 */
export type HeldCredentialSource = 'document_review' | 'vc_jwt' | 'data_integrity';

/** Whether it still counts: `revoked` (or suspended) by its issuer, or its issuer `untrusted` since, say it does not. */
export type HeldCredentialState = 'active' | 'revoked' | 'untrusted';

/** A verifiable credential as presented, kept to verify it again on schedule. */
export interface KeptCredential {
  format: 'vc+jwt' | 'vc+ld+json';
  /** The VC-JWT, or the JSON of a Data Integrity-secured credential. */
  credential: string;
  issuer: string;
}

/** Whose credential: a candidate's for a listing, or an employee's for a role (profileUserId / listingId then name the employee and the role). */
export type HeldCredentialSubject = 'candidate' | 'employee';

export interface HeldCredential {
  id: string;
  organizationId: string;
  subject: HeldCredentialSubject;
  profileUserId: string;
  listingId: string;
  requirementKey: string;
  credentialType: string;
  source: HeldCredentialSource;
  /** The document's id, or the VC's id. */
  sourceId: string;
  expiresAt: Date;
  /** Days-before thresholds whose credential.expiring went out for this expiry. */
  expiringNotices: number[];
  expiredNoticeAt: Date | null;
  /** Verifiable credentials only (null for reviewed documents). */
  kept: KeptCredential | null;
  state: HeldCredentialState;
  /** Why it is not active (credential_revoked, credential_suspended, issuer_untrusted). */
  stateReason: string | null;
  /** When its proof, status and issuer last checked out. */
  verifiedAt: Date | null;
  /** Who to remind before it expires, when the host said (reminder emails). */
  holder: CredentialHolder | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewHeldCredential = Pick<
  HeldCredential,
  'organizationId' | 'profileUserId' | 'listingId' | 'requirementKey' | 'credentialType' | 'source' | 'sourceId' | 'expiresAt'
> & { kept?: KeptCredential; holder?: CredentialHolder; subject?: HeldCredentialSubject };

/** Who to remind: a name, an email and, when known (a candidate's application gave one), the BCP 47 language they read. */
export interface CredentialHolder {
  name: string | null;
  email: string;
  language?: string | null;
}

export type ComplianceStatus = 'compliant' | 'expiring' | 'expired' | 'revoked' | 'untrusted';

export interface ComplianceQuery {
  organizationId: string;
  requirementKey?: string;
  listingId?: string;
  profileUserId?: string;
  subject?: HeldCredentialSubject;
  status?: ComplianceStatus;
  /** The instant statuses are judged at, and how far ahead "expiring" looks. */
  now: Date;
  expiringWithinDays: number;
  limit: number;
  startingAfter?: string;
}

export interface HeldCredentialRepository {
  /** Keeps the credential expiring last for the person, listing and requirement; a later expiry resets its notices. */
  record(credential: NewHeldCredential, id: string, now: Date): Promise<HeldCredential>;
  find(organizationId: string, id: string): Promise<HeldCredential | undefined>;
  /** Rows that may owe a notice at `now` (expiring within `horizonDays`, no expired notice yet), by expiry then id, after `after`. */
  dueForNotices(now: Date, horizonDays: number, limit: number, after?: Pick<HeldCredential, 'expiresAt' | 'id'>): Promise<HeldCredential[]>;
  /** Records notices sent; only if the expiry is still the one they were for. */
  markNoticed(id: string, expiresAt: Date, notices: { expiring: number[]; expiredAt: Date | null }): Promise<void>;
  /** Active kept credentials last verified before `before` (or never), in id order after `afterId`. */
  dueForReverification(before: Date, limit: number, afterId?: string): Promise<HeldCredential[]>;
  /** Records a verification: `active` again at `at`, or the state it fell to. Answers false when the row is no longer active (another sweep was first). */
  markReverified(id: string, at: Date, outcome: { state: HeldCredentialState; reason: string | null }): Promise<boolean>;
  /** Deletes an employee's held credentials (all, or those for the given roles): they left, or no longer hold the role. */
  forgetEmployee(organizationId: string, employeeId: string, roleIds?: string[]): Promise<number>;
  /** One page in id order; streams call it until `hasMore` is false. */
  list(query: ComplianceQuery): Promise<{ data: HeldCredential[]; hasMore: boolean }>;
}

export const HELD_CREDENTIAL_REPOSITORY = Symbol('HeldCredentialRepository');

/** What a verification of a kept credential found now. `unavailable`: could not tell (status list down): try again later. */
export type ReverificationOutcome =
  | { state: 'active' }
  | { state: 'revoked'; reason: 'credential_revoked' | 'credential_suspended' }
  | { state: 'untrusted'; reason: 'issuer_untrusted' | 'signature_invalid' }
  | { state: 'unavailable'; reason: string };

/** The port the credential checks implement: verify a kept credential again, against its requirement's trust list today. */
export interface HeldCredentialVerifier {
  reverify(credential: HeldCredential, at: Date): Promise<ReverificationOutcome>;
}

export const HELD_CREDENTIAL_VERIFIER = Symbol('HeldCredentialVerifier');
