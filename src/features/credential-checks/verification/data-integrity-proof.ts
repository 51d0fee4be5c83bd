/**
 * Verifies a Data Integrity proof (W3C VC Data Integrity 1.0, cryptosuite `eddsa-rdfc-2022`)
 * with Digital Bazaar's libraries (jsonld-signatures, data-integrity, the eddsa-rdfc-2022
 * cryptosuite): the document is canonicalized (RDFC-1.0, JSON-LD safe mode: a term no shipped
 * context defines fails) and the Ed25519 signature checked against a key of the issuer's own
 * DID, listed as its assertion method. Contexts and keys come from the local document loader
 * only. Answers the verified document, or rejects with the reason.
 */
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import { cryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import jsigs from 'jsonld-signatures';
import { Rejected, type Json } from './credential-claims';
import type { DidResolver } from './did-resolver';
import { LocalDocumentLoader } from './local-document-loader';

export const CRYPTOSUITE = 'eddsa-rdfc-2022';
const MAX_PROOFS = 4;

/** The proofs we can check: DataIntegrityProof / eddsa-rdfc-2022 for assertions, whose key is the issuer's. */
function checkableProofs(document: Json, issuer: string): Json[] {
  const proofs = (Array.isArray(document.proof) ? document.proof : [document.proof]).filter((p): p is Json => !!p && typeof p === 'object');
  if (proofs.length === 0 || proofs.length > MAX_PROOFS) throw new Rejected('proof_unsupported');
  const ours = proofs.filter((p) => p.type === 'DataIntegrityProof' && p.cryptosuite === CRYPTOSUITE && p.proofPurpose === 'assertionMethod');
  if (ours.length === 0) throw new Rejected('proof_unsupported');
  for (const proof of ours) {
    const method = typeof proof.verificationMethod === 'string' ? proof.verificationMethod : undefined;
    if (!method || !method.startsWith(`${issuer}#`)) throw new Rejected('issuer_mismatch');
  }
  return ours;
}

export class DataIntegrityVerifier {
  constructor(private readonly dids: DidResolver) {}

  async verify(document: Json, issuer: string): Promise<Json> {
    checkableProofs(document, issuer);
    const loader = new LocalDocumentLoader(this.dids);
    let verified = false;
    try {
      const result = await jsigs.verify(structuredClone(document), {
        suite: new DataIntegrityProof({ cryptosuite }),
        purpose: new jsigs.purposes.AssertionProofPurpose(),
        documentLoader: loader.load,
      });
      verified = result.verified;
    } catch {
      verified = false;
    }
    if (verified) return document;
    // Why: a context or key we could not have (not a forgery, but nothing to verify with), else a bad proof.
    if (loader.failure) throw new Rejected(loader.failure);
    throw new Rejected('signature_invalid');
  }
}
