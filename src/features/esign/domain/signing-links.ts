/**
 * The signer's link: no account, so the link is the credential. It names the organization
 * and the envelope and carries an expiry, signed with HMAC-SHA256 under a key derived from
 * SECRET_KEY for this purpose only (`esign-links`). Compared in constant time; a tampered,
 * truncated or expired link is a stable 4xx code, never a partial read.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { DomainError, invalid } from '../../../kernel/errors';

export interface SigningLinkClaims {
  organizationId: string;
  envelopeId: string;
  expiresAt: Date;
}

const mac = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest();

export function signSigningLink(key: Buffer, claims: SigningLinkClaims): string {
  const payload = Buffer.from(JSON.stringify({ o: claims.organizationId, v: claims.envelopeId, e: Math.floor(claims.expiresAt.getTime() / 1000) })).toString(
    'base64url',
  );
  return `${payload}.${mac(key, payload).toString('base64url')}`;
}

export function verifySigningLink(key: Buffer, token: string, now: Date): SigningLinkClaims {
  const [payload, signature, ...rest] = token.split('.');
  const tampered = () => invalid('signing_link_invalid', 'This signing link is not valid; ask the sender for a new one.');
  if (!payload || !signature || rest.length > 0) throw tampered();
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(key, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw tampered();
  let claims: { o?: unknown; v?: unknown; e?: unknown };
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof claims;
  } catch {
    throw tampered();
  }
  if (typeof claims.o !== 'string' || typeof claims.v !== 'string' || typeof claims.e !== 'number') throw tampered();
  const expiresAt = new Date(claims.e * 1000);
  if (expiresAt <= now) throw new DomainError('gone', 'signing_link_expired', 'This signing link has expired; ask the sender for a new one.');
  return { organizationId: claims.o, envelopeId: claims.v, expiresAt };
}
