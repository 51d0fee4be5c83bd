/**
 * Erasure's first duty at the provider: the candidate's grant to the organization is
 * revoked there (RFC 7009), not only forgotten here. The refresh token goes first (revoking
 * it ends the grant at most providers), then the access token. A provider without a
 * revocation endpoint is noted in the log; an outage fails the step, and the erasure
 * retries it before any row is deleted.
 */
import type { CandidateAuthorizationRepository } from '../../profiles/domain/candidate-authorization';
import type { ProfileProvider } from '../../profiles/domain/profile-provider';
import type { Logger } from '../../../kernel/logger';
import type { CandidateSubject } from './candidate-data';

export function revokeProviderTokens(
  authorizations: CandidateAuthorizationRepository,
  provider: ProfileProvider,
  logger: Logger,
): (subject: CandidateSubject) => Promise<void> {
  return async (subject) => {
    const authorization = await authorizations.find(subject.organizationId, subject.profileUserId);
    if (!authorization) return;
    const fields = { organizationId: subject.organizationId, authorizationId: authorization.id };
    if (!provider.revoke) {
      logger.info(fields, 'the profile provider offers no token revocation; the tokens are deleted here only');
      return;
    }
    const tokens: [string, 'refresh_token' | 'access_token'][] = [[authorization.accessToken, 'access_token']];
    if (authorization.refreshToken) tokens.unshift([authorization.refreshToken, 'refresh_token']);
    for (const [token, hint] of tokens) {
      if ((await provider.revoke(token, hint)) === 'unsupported') {
        logger.info(fields, 'the profile provider offers no token revocation; the tokens are deleted here only');
        return;
      }
    }
    logger.info(fields, 'provider tokens revoked');
  };
}
