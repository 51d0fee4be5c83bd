/**
 * The candidate's scheduling link: no account, so the link itself is the credential. It names
 * the organization and the scheduling request and carries an expiry, signed with HMAC-SHA256
 * under a key derived from SECRET_KEY for this purpose only (`scheduling-links`), the way
 * Calendly and GoodTime links work. Compared in constant time; a tampered, truncated or
 * expired link is a stable 4xx code, never a partial read.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { invalid } from '../../../kernel/errors';

export interface SchedulingLinkClaims {
  organizationId: string;
  requestId: string;
  expiresAt: Date;
}

const mac = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest();

export function signSchedulingLink(key: Buffer, claims: SchedulingLinkClaims): string {
  const payload = Buffer.from(JSON.stringify({ o: claims.organizationId, r: claims.requestId, e: Math.floor(claims.expiresAt.getTime() / 1000) })).toString(
    'base64url',
  );
  return `${payload}.${mac(key, payload).toString('base64url')}`;
}

export function verifySchedulingLink(key: Buffer, token: string, now: Date): SchedulingLinkClaims {
  const [payload, signature, ...rest] = token.split('.');
  const tampered = () => invalid('scheduling_link_invalid', 'This scheduling link is not valid; ask for a new one.');
  if (!payload || !signature || rest.length > 0) throw tampered();
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(key, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw tampered();
  let claims: { o?: unknown; r?: unknown; e?: unknown };
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof claims;
  } catch {
    throw tampered();
  }
  if (typeof claims.o !== 'string' || typeof claims.r !== 'string' || typeof claims.e !== 'number') throw tampered();
  const expiresAt = new Date(claims.e * 1000);
  if (expiresAt <= now) throw invalid('scheduling_link_expired', 'This scheduling link has expired; ask for a new one.');
  return { organizationId: claims.o, requestId: claims.r, expiresAt };
}
