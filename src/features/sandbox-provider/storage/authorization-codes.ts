/**
 * The sandbox's authorization codes: stored as a SHA-256 digest, valid 60 seconds,
 * redeemable once (an atomic update claims the code), bound to client, redirect URI and
 * PKCE challenge.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../../../platform/database/database';

export const CODE_TTL_MS = 60_000;

export interface CodeGrant {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  userId: string;
  scope: string;
}

const digest = (code: string) => createHash('sha256').update(code).digest('hex');

export class SandboxAuthorizationCodes {
  constructor(private readonly db: Database) {}

  async issue(grant: CodeGrant): Promise<string> {
    const code = `sbxcode_${randomBytes(24).toString('base64url')}`;
    await this.db('hi_sandbox_authorization_codes').insert({
      code_hash: digest(code),
      client_id: grant.clientId,
      redirect_uri: grant.redirectUri,
      code_challenge: grant.codeChallenge,
      user_id: grant.userId,
      scope: grant.scope,
      expires_at: new Date(Date.now() + CODE_TTL_MS),
    });
    return code;
  }

  /** Claims the code: the first redemption gets the grant, every later one nothing. */
  async redeem(code: string): Promise<CodeGrant | undefined> {
    const rows = await this.db('hi_sandbox_authorization_codes')
      .where({ code_hash: digest(code) })
      .whereNull('used_at')
      .where('expires_at', '>', new Date())
      .update({ used_at: new Date() })
      .returning('*');
    const row = rows[0];
    if (!row) return undefined;
    return { clientId: row.client_id, redirectUri: row.redirect_uri, codeChallenge: row.code_challenge, userId: row.user_id, scope: row.scope };
  }
}

/** RFC 7636 S256: BASE64URL(SHA256(verifier)). */
export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}
