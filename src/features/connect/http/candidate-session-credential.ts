import { inject, injectable } from 'tsyringe';
import { CANDIDATE_SESSIONS, type CandidateSessions } from '../domain/candidate-session';
import { CANDIDATE_TOKEN_PREFIX } from './candidate-session-token';
import type { CredentialVerifier, Principal } from '../../../platform/http/principal';

/** `hic_…` tokens issued by the connect callback to the widget. */
@injectable()
export class CandidateSessionVerifier implements CredentialVerifier {
  readonly kind = 'candidate' as const;

  constructor(@inject(CANDIDATE_SESSIONS) private readonly sessions: CandidateSessions) {}

  recognizes(token: string): boolean {
    return token.startsWith(CANDIDATE_TOKEN_PREFIX);
  }

  async verify(token: string): Promise<Principal> {
    const binding = this.sessions.verify(token);
    return { kind: 'candidate', organizationId: binding.organizationId, listingId: binding.listingId, profileUserId: binding.profileUserId };
  }
}
