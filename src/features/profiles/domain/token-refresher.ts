/**
 * Refreshes a candidate's access token, once: under the refresh lock, the authorization is
 * read again; if someone else refreshed meanwhile, their tokens are used and the provider
 * is not asked. Otherwise one refresh request, and the new tokens (a rotated refresh token
 * included) are stored before the lock is released, so nobody can send the old refresh
 * token again. A refresh the provider refuses (invalid_grant) ends the authorization:
 * the candidate has to authorize again.
 */
import { inject, injectable } from 'tsyringe';
import { forbidden } from '../../../kernel/errors';
import { LOGGER, type Logger } from '../../../kernel/logger';
import { CANDIDATE_AUTHORIZATION_REPOSITORY, type CandidateAuthorization, type CandidateAuthorizationRepository } from './candidate-authorization';
import { PROFILE_PROVIDER, ProviderAuthorizationError, type ProfileProvider } from './profile-provider';
import { REFRESH_LOCK, type RefreshLock } from './refresh-lock';

export const notAuthorized = () =>
  forbidden(
    'profile_not_authorized',
    'The candidate has not authorized this organization to read their profile (or the authorization was revoked); they need to connect again',
  );

@injectable()
export class TokenRefresher {
  constructor(
    @inject(PROFILE_PROVIDER) private readonly provider: ProfileProvider,
    @inject(CANDIDATE_AUTHORIZATION_REPOSITORY) private readonly authorizations: CandidateAuthorizationRepository,
    @inject(REFRESH_LOCK) private readonly lock: RefreshLock,
    @inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** The authorization with a usable access token, given the one whose token was found stale. */
  async refresh(stale: CandidateAuthorization): Promise<CandidateAuthorization> {
    return this.lock.run(`refresh:${stale.organizationId}:${stale.profileUserId}`, async () => {
      const current = await this.authorizations.find(stale.organizationId, stale.profileUserId);
      if (!current) throw notAuthorized();
      if (current.accessToken !== stale.accessToken) return current;
      const fields = { organizationId: current.organizationId, profileUserId: current.profileUserId, authorizationId: current.id };
      if (!current.refreshToken) {
        this.logger.info(fields, 'access token expired and the provider gave no refresh token; the candidate has to authorize again');
        throw notAuthorized();
      }
      let tokens;
      try {
        tokens = await this.provider.refresh(current.refreshToken);
      } catch (error) {
        if (!(error instanceof ProviderAuthorizationError)) throw error;
        await this.authorizations.end(current.id, current.authorizedAt);
        this.logger.warn(
          { ...fields, providerError: error.providerError },
          'profile provider refused the refresh token; the authorization is ended and the candidate has to authorize again',
        );
        throw notAuthorized();
      }
      const refreshed = {
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken ?? current.refreshToken,
        accessTokenExpiresAt: tokens.expiresAt ?? null,
      };
      await this.authorizations.updateTokens(current.id, refreshed);
      return { ...current, ...refreshed };
    });
  }
}
