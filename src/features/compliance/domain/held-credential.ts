/**
 * A credential a candidate holds for one requirement of a listing, tracked until it expires:
 * one per person, listing and requirement (a renewal replaces it and its notices start over).
 */
export type HeldCredentialSource = 'document_review' | 'vc_jwt';

export interface HeldCredential {
  id: string;
  organizationId: string;
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
  createdAt: Date;
  updatedAt: Date;
}

export type NewHeldCredential = Pick<
  HeldCredential,
  'organizationId' | 'profileUserId' | 'listingId' | 'requirementKey' | 'credentialType' | 'source' | 'sourceId' | 'expiresAt'
>;

export type ComplianceStatus = 'compliant' | 'expiring' | 'expired';

export interface ComplianceQuery {
  organizationId: string;
  requirementKey?: string;
  listingId?: string;
  profileUserId?: string;
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
  /** One page in id order; streams call it until `hasMore` is false. */
  list(query: ComplianceQuery): Promise<{ data: HeldCredential[]; hasMore: boolean }>;
}

export const HELD_CREDENTIAL_REPOSITORY = Symbol('HeldCredentialRepository');
