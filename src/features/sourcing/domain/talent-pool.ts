/**
 * The talent pool: past applicants of an organization who consented, with an application,
 * to be contacted again about other jobs (the address they gave, and where they want to
 * work). A later consent replaces an earlier one; a withdrawal (or an erasure, which
 * deletes the row) takes the candidate out of every search at once.
 */
import type { PoolCandidate } from './candidate-ranking';

export interface PoolMember {
  organizationId: string;
  profileUserId: string;
  applicationId: string;
  email: string;
  location: string | null;
  /** The language the candidate applied in (BCP 47), kept with the consent: invitations are written in it; null when none was given. */
  language?: string | null;
  grantedAt: Date;
  withdrawnAt: Date | null;
}

/** Candidates read for one search: the most recent consenting applicants, at most this many. */
export const SEARCH_SCAN_LIMIT = 5000;

export interface TalentPoolRepository {
  consent(member: Omit<PoolMember, 'withdrawnAt'>): Promise<void>;
  /** The member while the consent stands; undefined after a withdrawal or erasure. */
  active(organizationId: string, profileUserId: string): Promise<PoolMember | undefined>;
  /** The member whether or not the consent was withdrawn; undefined once erased. */
  member(organizationId: string, profileUserId: string): Promise<PoolMember | undefined>;
  withdraw(organizationId: string, profileUserId: string, at: Date): Promise<boolean>;
  /** Consenting candidates as their latest application shows them, the most recent applicants first. */
  candidates(organizationId: string, limit: number): Promise<PoolCandidate[]>;
}

export const TALENT_POOL_REPOSITORY = Symbol('TalentPoolRepository');
