/**
 * Candidate authorizations with their OAuth tokens sealed by AES-256-GCM. The associated
 * data is (organization, candidate, field): a ciphertext moved to another row or field
 * does not decrypt.
 */
import { inject, injectable } from 'tsyringe';
import type { OutboxMessage } from '../../../kernel/outbox';
import type { CandidateAuthorization, CandidateAuthorizationRepository } from '../domain/candidate-authorization';
import { newId } from '../../../kernel/ids';
import { TokenCipher } from '../../../platform/security/token-cipher';
import type { Database } from '../../../platform/database/database';
import { writeOutbox } from '../../../platform/queue/outbox';
import { DATABASE } from '../../../platform/database/tokens';

export const TOKEN_CIPHER = Symbol('TokenCipher');

interface AuthorizationRow {
  id: string;
  organization_id: string;
  profile_user_id: string;
  listing_id: string;
  access_token_ciphertext: string;
  refresh_token_ciphertext: string | null;
  access_token_expires_at: Date | null;
  authorized_at: Date;
  updated_at: Date;
}

const aad = (organizationId: string, profileUserId: string, field: 'access' | 'refresh') => `${organizationId}/${profileUserId}/${field}`;

@injectable()
export class KnexCandidateAuthorizationRepository implements CandidateAuthorizationRepository {
  constructor(
    @inject(DATABASE) private readonly db: Database,
    @inject(TOKEN_CIPHER) private readonly cipher: TokenCipher,
  ) {}

  async find(organizationId: string, profileUserId: string): Promise<CandidateAuthorization | undefined> {
    const row = await this.db<AuthorizationRow>('hi_candidate_authorizations')
      .where({ organization_id: organizationId, profile_user_id: profileUserId })
      .first();
    return row ? this.fromRow(row) : undefined;
  }

  async save(
    authorization: Omit<CandidateAuthorization, 'id'>,
    messages: (stored: CandidateAuthorization) => readonly OutboxMessage[],
  ): Promise<CandidateAuthorization> {
    const { organizationId, profileUserId } = authorization;
    const row = {
      id: newId('auth'),
      organization_id: organizationId,
      profile_user_id: profileUserId,
      listing_id: authorization.listingId,
      access_token_ciphertext: this.cipher.encrypt(authorization.accessToken, aad(organizationId, profileUserId, 'access')),
      refresh_token_ciphertext: authorization.refreshToken
        ? this.cipher.encrypt(authorization.refreshToken, aad(organizationId, profileUserId, 'refresh'))
        : null,
      access_token_expires_at: authorization.accessTokenExpiresAt,
      authorized_at: authorization.authorizedAt,
      updated_at: authorization.authorizedAt,
    };
    return this.db.transaction(async (trx) => {
      // A re-authorization keeps the id and replaces tokens and time.
      const [stored] = await trx('hi_candidate_authorizations')
        .insert(row)
        .onConflict(['organization_id', 'profile_user_id'])
        .merge(['listing_id', 'access_token_ciphertext', 'refresh_token_ciphertext', 'access_token_expires_at', 'authorized_at', 'updated_at'])
        .returning('*');
      const result = this.fromRow(stored as AuthorizationRow);
      await writeOutbox(trx, messages(result));
      return result;
    });
  }

  async updateTokens(id: string, tokens: { accessToken: string; refreshToken: string | null; accessTokenExpiresAt: Date | null }): Promise<void> {
    const row = await this.db<AuthorizationRow>('hi_candidate_authorizations').where({ id }).first();
    if (!row) return;
    await this.db('hi_candidate_authorizations')
      .where({ id })
      .update({
        access_token_ciphertext: this.cipher.encrypt(tokens.accessToken, aad(row.organization_id, row.profile_user_id, 'access')),
        refresh_token_ciphertext: tokens.refreshToken
          ? this.cipher.encrypt(tokens.refreshToken, aad(row.organization_id, row.profile_user_id, 'refresh'))
          : null,
        access_token_expires_at: tokens.accessTokenExpiresAt,
        updated_at: new Date(),
      });
  }

  async end(id: string, authorizedAt: Date): Promise<void> {
    await this.db('hi_candidate_authorizations').where({ id, authorized_at: authorizedAt }).delete();
  }

  private fromRow(row: AuthorizationRow): CandidateAuthorization {
    const cipher = this.cipher;
    // The refresh token is decrypted when first read: an import whose access token works
    // (nearly every one) never needs it.
    let refreshToken: string | null | undefined;
    return {
      id: row.id,
      organizationId: row.organization_id,
      profileUserId: row.profile_user_id,
      listingId: row.listing_id,
      accessToken: cipher.decrypt(row.access_token_ciphertext, aad(row.organization_id, row.profile_user_id, 'access')),
      get refreshToken(): string | null {
        if (refreshToken === undefined) {
          refreshToken = row.refresh_token_ciphertext
            ? cipher.decrypt(row.refresh_token_ciphertext, aad(row.organization_id, row.profile_user_id, 'refresh'))
            : null;
        }
        return refreshToken;
      },
      accessTokenExpiresAt: row.access_token_expires_at ? new Date(row.access_token_expires_at) : null,
      authorizedAt: new Date(row.authorized_at),
    };
  }
}
