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
import { DidResolutionError, type DidResolver, type ResolvedKey } from './did-resolver';
import type { DocumentFetcher } from './document-fetcher';
import { decodeBitstring, isBitSet, statusEntries } from './status-list';

const ALGORITHMS = ['EdDSA', 'ES256', 'ES384', 'PS256', 'RS256'];
const MAX_JWT = 64 * 1024;

class Rejected extends Error {
  constructor(readonly reason: VerificationReason) {
    super(reason);
  }
}

type Json = Record<string, unknown>;

interface Claims {
  id: string | null;
  types: string[];
  issuer: string;
  name: string | null;
  validFrom: Date | null;
  validUntil: Date | null;
  credentialStatus: unknown;
  subject: Json;
}

const asDate = (value: unknown): Date | null => {
  if (value === undefined || value === null) return null;
  const date = typeof value === 'number' ? new Date(value * 1000) : typeof value === 'string' ? new Date(value) : new Date(NaN);
  if (Number.isNaN(date.getTime())) throw new Rejected('credential_malformed');
  return date;
};
const strings = (value: unknown): string[] => (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
const issuerId = (issuer: unknown) => (typeof issuer === 'string' ? issuer : issuer && typeof issuer === 'object' ? (issuer as Json).id : undefined);

/** The credential's claims from a v2.0 payload (the payload is the credential) or a v1.1 one (`vc` + registered claims). */
function claimsOf(payload: Json): Claims {
  const vc = payload.vc && typeof payload.vc === 'object' ? (payload.vc as Json) : undefined;
  const credential = vc ?? payload;
  const issuer = issuerId(credential.issuer) ?? payload.iss;
  if (typeof issuer !== 'string' || !issuer.startsWith('did:')) throw new Rejected('credential_malformed');
  if (vc && payload.iss !== undefined && payload.iss !== issuer) throw new Rejected('issuer_mismatch');
  const types = strings(credential.type);
  if (!types.includes('VerifiableCredential')) throw new Rejected('credential_malformed');
  const subjects = Array.isArray(credential.credentialSubject) ? credential.credentialSubject : [credential.credentialSubject];
  const subject = (subjects[0] && typeof subjects[0] === 'object' ? subjects[0] : {}) as Json;
  // Open Badges 3.0: what was achieved is the subject's achievement (its achievementType, e.g. License).
  const achievement = subject.achievement && typeof subject.achievement === 'object' ? (subject.achievement as Json) : undefined;
  const achievementTypes = achievement ? strings(achievement.achievementType) : [];
  const name = typeof credential.name === 'string' ? credential.name : typeof achievement?.name === 'string' ? achievement.name : null;
  return {
    id: typeof credential.id === 'string' ? credential.id : typeof payload.jti === 'string' ? payload.jti : null,
    types: [...types, ...achievementTypes],
    issuer,
    name,
    validFrom: asDate(credential.validFrom ?? credential.issuanceDate ?? payload.nbf),
    validUntil: asDate(credential.validUntil ?? credential.expirationDate ?? payload.exp),
    credentialStatus: credential.credentialStatus,
    subject,
  };
}

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
  constructor(
    private readonly dids: DidResolver,
    private readonly fetcher: DocumentFetcher,
  ) {}

  /** Verifies the JWS with the issuer's key named by `kid` (or its only key); answers the verified payload. */
  private async verifiedPayload(jwt: string, issuer: string): Promise<Json> {
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

  /** Every status entry: a set bit in the issuer's own verified list revokes or suspends. */
  private async checkStatus(claims: Claims): Promise<void> {
    let entries;
    try {
      entries = statusEntries(claims.credentialStatus);
    } catch {
      throw new Rejected('credential_malformed');
    }
    for (const entry of entries) {
      let bits: Buffer;
      try {
        const body = (await this.fetcher.text(entry.listUrl)).trim();
        if (body.startsWith('{')) throw new Error('an unsecured status list is not trusted');
        const list = claimsOf(await this.verifiedPayload(body, claims.issuer));
        if (list.issuer !== claims.issuer) throw new Error('the list is not the issuer’s');
        const subject = list.subject;
        if (subject.statusPurpose !== entry.purpose || typeof subject.encodedList !== 'string') throw new Error('not the list for this purpose');
        bits = decodeBitstring(subject.encodedList);
      } catch (error) {
        throw new Rejected(error instanceof Rejected && error.reason === 'issuer_unresolvable' ? 'issuer_unresolvable' : 'status_unavailable');
      }
      let set: boolean;
      try {
        set = isBitSet(bits, entry.index);
      } catch {
        throw new Rejected('status_unavailable');
      }
      if (set) throw new Rejected(entry.purpose === 'revocation' ? 'credential_revoked' : 'credential_suspended');
    }
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
      await this.checkStatus(claims);
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
