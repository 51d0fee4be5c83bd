/**
 * A credential as the checks see it once its source has been examined: what it claims (types,
 * issuer, validity period) and what the examination found. `verification.status` is
 * `verified` only when a proof checked out (a signature, a vendor's report, a reviewer's
 * approval), never because the credential or a provider says so.
 */
/** `document_review`: a document an organization's reviewer approved, with the expiry they read on it. */
/** `data_integrity`: a VC secured with a Data Integrity proof (eddsa-rdfc-2022). */
export type CredentialSource = 'vc_jwt' | 'data_integrity' | 'self_reported' | 'document_review';

export type VerificationStatus = 'verified' | 'unverified' | 'invalid';

/** Why a credential is not verified; stable codes shown in the check's evidence. */
export type VerificationReason =
  | 'signature_invalid'
  | 'credential_malformed'
  | 'issuer_unresolvable'
  | 'issuer_mismatch'
  | 'credential_revoked'
  | 'credential_suspended'
  | 'status_unavailable'
  | 'not_yet_valid'
  | 'self_reported'
  /** A JSON-LD context the plugin does not ship (it never fetches one). */
  | 'context_unavailable'
  /** No proof, or none of the kind checked here (DataIntegrityProof, eddsa-rdfc-2022, assertionMethod). */
  | 'proof_unsupported';

export interface PresentedCredential {
  /** Where it came from and, for a VC, its `id` when it has one. */
  source: CredentialSource;
  id: string | null;
  /** The VC `type` entries plus an Open Badges achievement's `achievementType`, or the self-reported title. */
  types: string[];
  /** A DID (or URL) for a VC; the issuer's name for a self-reported credential. */
  issuer: string;
  name: string | null;
  validFrom: Date | null;
  validUntil: Date | null;
  verification: { status: VerificationStatus; reason: VerificationReason | null };
}
