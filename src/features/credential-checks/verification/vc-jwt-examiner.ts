/**
 * Examines a VC-JWT (W3C VC Data Model 2.0 secured with JOSE, and the v1.1 `vc` claim form;
 * Open Badges 3.0 credentials are of this kind): the signature against the issuer's key
 * resolved from its DID, the key id belonging to the issuer, the validity period and the
 * Bitstring Status List entry (the list credential itself verified against the same issuer).
 * Verified means all of these checked out; the JSON's own claims are never trusted.
 */
import { compactVerify, decodeProtectedHeader, importJWK } from 'jose';
import type { CredentialExaminer, PresentedInput } from '../domain/credential-examiner';
import type { PresentedCredential, VerificationReason } from '../domain/presented-credential';
import { claimsOf, Rejected, type Claims, type Json } from './credential-claims';
import { DataIntegrityVerifier } from './data-integrity-proof';
import { DidResolutionError, type DidResolver, type ResolvedKey } from './did-resolver';
import type { DocumentFetcher } from './document-fetcher';
import { StatusCheck } from './status-check';

const ALGORITHMS = ['EdDSA', 'ES256', 'ES384', 'PS256', 'RS256'];
const MAX_JWT = 64 * 1024;

function decodePayload(jwt: string): Json {
  const parts = jwt.split('.');
  if (parts.length !== 3) throw new Rejected('credential_malformed');
  try {
    const payload = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as unknown;
    if (!payload || typeof payload !== 'object' || Array.isArray(payload)) throw new Error('not an object');
    return payload as Json;
  } catch {
    throw new Rejected('credential_malformed');
  }
}

export class VcJwtExaminer implements CredentialExaminer {
  private readonly status: StatusCheck;

  constructor(
    private readonly dids: DidResolver,
    fetcher: DocumentFetcher,
  ) {
    this.status = new StatusCheck(fetcher, (jwt, issuer) => this.verifiedPayload(jwt, issuer), new DataIntegrityVerifier(dids));
  }

  /** Verifies the JWS with the issuer's key named by `kid` (or its only key); answers the verified payload. */
  async verifiedPayload(jwt: string, issuer: string): Promise<Json> {
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader(jwt);
    } catch {
      throw new Rejected('credential_malformed');
    }
    if (!header.alg || !ALGORITHMS.includes(header.alg)) throw new Rejected('signature_invalid');
    let keys: ResolvedKey[];
    try {
      keys = await this.dids.keys(issuer);
    } catch (error) {
      if (error instanceof DidResolutionError) throw new Rejected('issuer_unresolvable');
      throw error;
    }
    const kid = header.kid;
    if (kid !== undefined && !kid.startsWith('#') && !kid.startsWith(`${issuer}#`)) throw new Rejected('issuer_mismatch');
    const candidates = kid === undefined ? (keys.length === 1 ? keys : []) : keys.filter((k) => k.id === kid || k.id === `${issuer}${kid}`);
    // A did:key / did:jwk has one key whatever the fragment a signer wrote.
    const usable = candidates.length ? candidates : keys.length === 1 && !issuer.startsWith('did:web:') ? keys : [];
    for (const key of usable) {
      try {
        const result = await compactVerify(jwt, await importJWK(key.jwk, header.alg), { algorithms: [header.alg] });
        return JSON.parse(new TextDecoder().decode(result.payload)) as Json;
      } catch {
        /* the next key, else signature_invalid */
      }
    }
    throw new Rejected('signature_invalid');
  }

  async examine(input: PresentedInput, now: Date): Promise<PresentedCredential> {
    if (input.format !== 'vc+jwt') throw new Error('VcJwtExaminer examines vc+jwt only');
    let claims: Claims | undefined;
    try {
      if (input.credential.length > MAX_JWT) throw new Rejected('credential_malformed');
      claims = claimsOf(decodePayload(input.credential));
      // From here on only what the signature covers counts.
      claims = claimsOf(await this.verifiedPayload(input.credential, claims.issuer));
      if (claims.validFrom && claims.validFrom.getTime() > now.getTime()) throw new Rejected('not_yet_valid');
      await this.status.check(claims);
      return this.presented(claims, 'verified', null);
    } catch (error) {
      if (!(error instanceof Rejected)) throw error;
      // A status we could not read leaves a genuine credential unverified; anything else makes it invalid.
      const status = error.reason === 'status_unavailable' ? 'unverified' : 'invalid';
      if (claims) return this.presented(claims, status, error.reason);
      return {
        source: 'vc_jwt',
        id: null,
        types: [],
        issuer: '',
        name: null,
        validFrom: null,
        validUntil: null,
        verification: { status, reason: error.reason },
      };
    }
  }

  private presented(claims: Claims, status: PresentedCredential['verification']['status'], reason: VerificationReason | null): PresentedCredential {
    return {
      source: 'vc_jwt',
      id: claims.id,
      types: claims.types,
      issuer: claims.issuer,
      name: claims.name,
      validFrom: claims.validFrom,
      validUntil: claims.validUntil,
      verification: { status, reason },
    };
  }
}

/** Self-reported credentials (a profile's list, a form) are never verified. */
export function selfReported(input: Extract<PresentedInput, { format: 'self_reported' }>): PresentedCredential {
  const validUntil = input.valid_until ? new Date(input.valid_until) : null;
  return {
    source: 'self_reported',
    id: null,
    types: [input.title],
    issuer: input.issuer,
    name: input.title,
    validFrom: null,
    validUntil: validUntil && !Number.isNaN(validUntil.getTime()) ? validUntil : null,
    verification: { status: 'unverified', reason: 'self_reported' },
  };
}
