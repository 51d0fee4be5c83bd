/**
 * Examines a credential secured with a Data Integrity proof (`eddsa-rdfc-2022`; Open Badges
 * 3.0 credentials are often issued so): the proof against the issuer's key (did:key, did:web;
 * did:jwk with an Ed25519 key), then exactly the checks a VC-JWT gets: validity period and the
 * Bitstring Status List. Only a proof that checks out makes it verified. A credential we had
 * nothing to verify with (a context the plugin does not ship, another cryptosuite) is
 * `unverified` with its reason; one whose proof fails is `invalid`.
 */
import type { CredentialExaminer, PresentedInput } from '../domain/credential-examiner';
import type { PresentedCredential, VerificationReason, VerificationStatus } from '../domain/presented-credential';
import { claimsOf, Rejected, type Claims, type Json } from './credential-claims';
import { DataIntegrityVerifier } from './data-integrity-proof';
import type { DidResolver } from './did-resolver';
import type { DocumentFetcher } from './document-fetcher';
import { StatusCheck, type JwtVerifier } from './status-check';

const MAX_BYTES = 64 * 1024;
/** Reasons that say "could not be checked here", not "the proof is false". */
const UNCHECKABLE: VerificationReason[] = ['status_unavailable', 'context_unavailable', 'proof_unsupported'];

export class DataIntegrityExaminer implements CredentialExaminer {
  private readonly proofs: DataIntegrityVerifier;
  private readonly status: StatusCheck;

  /** `verifyJwt`: a status list may be a VC-JWT (the VC-JWT examiner's verification). */
  constructor(dids: DidResolver, fetcher: DocumentFetcher, verifyJwt: JwtVerifier) {
    this.proofs = new DataIntegrityVerifier(dids);
    this.status = new StatusCheck(fetcher, verifyJwt, this.proofs);
  }

  async examine(input: PresentedInput, now: Date): Promise<PresentedCredential> {
    if (input.format !== 'vc+ld+json') throw new Error('DataIntegrityExaminer examines vc+ld+json only');
    let claims: Claims | undefined;
    try {
      const document = input.credential as Json;
      if (!document || typeof document !== 'object' || Array.isArray(document) || JSON.stringify(document).length > MAX_BYTES) {
        throw new Rejected('credential_malformed');
      }
      claims = claimsOf(document);
      await this.proofs.verify(document, claims.issuer);
      if (claims.validFrom && claims.validFrom.getTime() > now.getTime()) throw new Rejected('not_yet_valid');
      await this.status.check(claims);
      return presented(claims, 'verified', null);
    } catch (error) {
      if (!(error instanceof Rejected)) throw error;
      const status: VerificationStatus = UNCHECKABLE.includes(error.reason) ? 'unverified' : 'invalid';
      if (claims) return presented(claims, status, error.reason);
      return {
        source: 'data_integrity',
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
}

function presented(claims: Claims, status: VerificationStatus, reason: VerificationReason | null): PresentedCredential {
  return {
    source: 'data_integrity',
    id: claims.id,
    types: claims.types,
    issuer: claims.issuer,
    name: claims.name,
    validFrom: claims.validFrom,
    validUntil: claims.validUntil,
    verification: { status, reason },
  };
}
