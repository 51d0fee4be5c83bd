/**
 * The sandbox's access and refresh tokens: signed, self-contained, expiring, so any
 * process serving the sandbox can check them. Access tokens live an hour, refresh tokens
 * thirty days; refreshing does not rotate the refresh token.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type SandboxTokenKind = 'access' | 'refresh';

export interface SandboxTokenClaims {
  kind: SandboxTokenKind;
  userId: string;
  clientId: string;
  scope: string;
  expiresAt: number;
}

const PREFIX: Record<SandboxTokenKind, string> = { access: 'sbxat_', refresh: 'sbxrt_' };
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

export class SandboxTokens {
  constructor(private readonly key: Buffer) {}

  issue(kind: SandboxTokenKind, claims: Omit<SandboxTokenClaims, 'kind' | 'expiresAt'>, now = Date.now()): { token: string; expiresIn: number } {
    const expiresIn = kind === 'access' ? ACCESS_TOKEN_TTL_SECONDS : REFRESH_TOKEN_TTL_SECONDS;
    const payload = Buffer.from(JSON.stringify({ ...claims, kind, expiresAt: now + expiresIn * 1000 })).toString('base64url');
    return { token: `${PREFIX[kind]}${payload}.${this.sign(kind, payload)}`, expiresIn };
  }

  verify(kind: SandboxTokenKind, token: string, now = Date.now()): SandboxTokenClaims | undefined {
    if (!token.startsWith(PREFIX[kind])) return undefined;
    const [payload, signature] = token.slice(PREFIX[kind].length).split('.');
    if (!payload || !signature) return undefined;
    const expected = Buffer.from(this.sign(kind, payload), 'base64url');
    const given = Buffer.from(signature, 'base64url');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    try {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as SandboxTokenClaims;
      return claims.kind === kind && claims.expiresAt > now ? claims : undefined;
    } catch {
      return undefined;
    }
  }

  private sign(kind: SandboxTokenKind, payload: string): string {
    return createHmac('sha256', this.key).update(`${kind}.${payload}`).digest('base64url');
  }
}
