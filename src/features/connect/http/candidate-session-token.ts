/**
 * Candidate session tokens: `hic_<payload>.<signature>`, stateless. The payload (base64url
 * JSON) names organization, listing, candidate and expiry; the signature is HMAC-SHA256
 * under a key derived for this purpose only, compared in constant time. Nothing is
 * stored, so a token cannot be revoked before its 30 minutes are up: that is the price
 * of any API process verifying it without a lookup.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { CANDIDATE_SESSION_TTL_SECONDS, type CandidateSessionBinding, type CandidateSessions, type IssuedCandidateSession } from '../domain/candidate-session';
import type { Clock } from '../../../kernel/clock';
import { unauthenticated } from '../../../kernel/errors';

export const CANDIDATE_TOKEN_PREFIX = 'hic_';

interface Payload {
  v: 1;
  o: string;
  l: string;
  u: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
}

const invalidToken = () => unauthenticated('invalid_candidate_token', 'The candidate session is invalid or has expired; connect the profile again');

export class SignedCandidateSessions implements CandidateSessions {
  constructor(
    private readonly key: Buffer,
    private readonly clock: Clock,
    private readonly ttlSeconds = CANDIDATE_SESSION_TTL_SECONDS,
  ) {}

  issue(binding: CandidateSessionBinding): IssuedCandidateSession {
    const exp = Math.floor(this.clock.now().getTime() / 1000) + this.ttlSeconds;
    const payload: Payload = { v: 1, o: binding.organizationId, l: binding.listingId, u: binding.profileUserId, exp };
    const encoded = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
    return { token: `${CANDIDATE_TOKEN_PREFIX}${encoded}.${this.sign(encoded)}`, expiresAt: new Date(exp * 1000) };
  }

  verify(token: string): CandidateSessionBinding {
    if (!token.startsWith(CANDIDATE_TOKEN_PREFIX) || token.length > 2048) throw invalidToken();
    const [encoded, signature, ...rest] = token.slice(CANDIDATE_TOKEN_PREFIX.length).split('.');
    if (!encoded || !signature || rest.length > 0) throw invalidToken();
    const expected = Buffer.from(this.sign(encoded), 'base64url');
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidToken();
    let payload: Payload;
    try {
      payload = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
    } catch {
      throw invalidToken();
    }
    if (payload.v !== 1 || typeof payload.exp !== 'number' || payload.exp * 1000 <= this.clock.now().getTime()) throw invalidToken();
    return { organizationId: payload.o, listingId: payload.l, profileUserId: payload.u };
  }

  private sign(encoded: string): string {
    return createHmac('sha256', this.key).update(`${CANDIDATE_TOKEN_PREFIX}${encoded}`).digest('base64url');
  }
}
