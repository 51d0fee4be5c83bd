/**
 * A candidate's OAuth authorization for one organization, with plaintext tokens: the
 * repository encrypts them at rest, so nothing above storage ever sees ciphertext.
 */
import type { OutboxMessage } from '../../../kernel/outbox';

export interface CandidateAuthorization {
  id: string;
  organizationId: string;
  profileUserId: string;
  /** The listing the candidate connected from. */
  listingId: string;
  accessToken: string;
  refreshToken: string | null;
  accessTokenExpiresAt: Date | null;
  authorizedAt: Date;
}

export interface CandidateAuthorizationRepository {
  find(organizationId: string, profileUserId: string): Promise<CandidateAuthorization | undefined>;
  /**
   * Inserts or replaces the authorization of (organization, candidate) and, in the same
   * transaction, writes the outbox messages built from the stored record.
   */
  save(
    authorization: Omit<CandidateAuthorization, 'id'>,
    messages: (stored: CandidateAuthorization) => readonly OutboxMessage[],
  ): Promise<CandidateAuthorization>;
  updateTokens(id: string, tokens: { accessToken: string; refreshToken: string | null; accessTokenExpiresAt: Date | null }): Promise<void>;
  /** Deletes the authorization unless the candidate authorized again since `authorizedAt`. */
  end(id: string, authorizedAt: Date): Promise<void>;
}

export const CANDIDATE_AUTHORIZATION_REPOSITORY = Symbol('CandidateAuthorizationRepository');
