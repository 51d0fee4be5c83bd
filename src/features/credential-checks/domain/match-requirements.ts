/**
 * The matcher: a listing's requirements against an applicant's presented credentials, pure.
 * Each requirement gets one outcome and the evidence for it: the best credential found
 * (met > pending > expired > unverified > missing), so a candidate with one genuine but
 * expired card and one forged card reads "expired", the thing to fix.
 */
import type { CredentialRequirement } from '../../listings/domain/credential-requirements';
import type { PresentedCredential, VerificationReason } from './presented-credential';

export type RequirementStatus = 'met' | 'missing' | 'expired' | 'unverified' | 'pending';

export type OutcomeReason = VerificationReason | 'issuer_untrusted' | 'credential_expired' | 'validity_below_minimum' | 'no_matching_credential' | VendorReason;

/** Why a vendor background check did not meet its requirements (background-checks), or why none was ordered. */
export type VendorReason =
  | 'report_consider'
  | 'invitation_expired'
  | 'report_canceled'
  | 'motor_vehicle_record_missing'
  | 'driver_license_not_valid'
  | 'major_violation'
  | 'contact_email_missing'
  | 'vendor_order_failed';

export interface RequirementOutcome {
  requirement: string;
  status: RequirementStatus;
  /** Why it is not met (null when met). */
  reason: OutcomeReason | null;
  /** The credential the outcome rests on, or null when none matched. */
  evidence: {
    source: PresentedCredential['source'] | 'background_check';
    credential_id: string | null;
    issuer: string;
    types: string[];
    valid_from: string | null;
    valid_until: string | null;
    verification: PresentedCredential['verification']['status'];
    /** A vendor check's: what the reason rests on (a violation's description). */
    detail?: string;
    /** A failed vendor order's: the action run that says why (`vendor_order_failed`). */
    run_id?: string;
  } | null;
}

export interface CheckSummary {
  status: 'met' | 'not_met' | 'pending';
  outcomes: RequirementOutcome[];
}

const RANK: Record<RequirementStatus, number> = { met: 4, pending: 3, expired: 2, unverified: 1, missing: 0 };
const DAY_MS = 86_400_000;

const sameType = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

function matchesType(requirement: CredentialRequirement, credential: PresentedCredential): boolean {
  if (credential.types.some((t) => sameType(t, requirement.credential_type))) return true;
  // A self-reported credential has only a title: it matches the type's name or the requirement's label.
  return credential.source === 'self_reported' && credential.types.some((t) => sameType(t, requirement.label));
}

function judge(requirement: CredentialRequirement, credential: PresentedCredential, now: Date): Pick<RequirementOutcome, 'status' | 'reason'> {
  const { status, reason } = credential.verification;
  if (status === 'invalid') return { status: 'unverified', reason: reason ?? 'signature_invalid' };
  // A reviewer who approved a document judged its issuer themselves: the trust list names DIDs, not paper.
  const issuerJudged = credential.source === 'document_review';
  if (!issuerJudged && requirement.issuers.length > 0 && !requirement.issuers.includes(credential.issuer))
    return { status: 'unverified', reason: 'issuer_untrusted' };
  if (credential.validUntil && credential.validUntil.getTime() <= now.getTime()) return { status: 'expired', reason: 'credential_expired' };
  if (credential.validUntil && credential.validUntil.getTime() < now.getTime() + requirement.min_validity_days * DAY_MS)
    return { status: 'expired', reason: 'validity_below_minimum' };
  if (status === 'unverified' && requirement.verified_source_required) return { status: 'unverified', reason: reason ?? 'self_reported' };
  return { status: 'met', reason: null };
}

const evidenceOf = (c: PresentedCredential): NonNullable<RequirementOutcome['evidence']> => ({
  source: c.source,
  credential_id: c.id,
  issuer: c.issuer,
  types: c.types,
  valid_from: c.validFrom?.toISOString() ?? null,
  valid_until: c.validUntil?.toISOString() ?? null,
  verification: c.verification.status,
});

export function matchRequirement(requirement: CredentialRequirement, credentials: PresentedCredential[], now: Date, pending = false): RequirementOutcome {
  let best: RequirementOutcome = pending
    ? { requirement: requirement.key, status: 'pending', reason: null, evidence: null }
    : { requirement: requirement.key, status: 'missing', reason: 'no_matching_credential', evidence: null };
  for (const credential of credentials) {
    if (!matchesType(requirement, credential)) continue;
    const verdict = judge(requirement, credential, now);
    if (RANK[verdict.status] > RANK[best.status]) {
      best = { requirement: requirement.key, ...verdict, evidence: evidenceOf(credential) };
    }
  }
  return best;
}

/** Every requirement's outcome; `pendingKeys` are requirements a vendor check is still working on. */
export function matchRequirements(
  requirements: CredentialRequirement[],
  credentials: PresentedCredential[],
  now: Date,
  pendingKeys: ReadonlySet<string> = new Set(),
): CheckSummary {
  return summarize(requirements.map((r) => matchRequirement(r, credentials, now, pendingKeys.has(r.key))));
}

/** The check's status from its outcomes. */
export function summarize(outcomes: RequirementOutcome[]): CheckSummary {
  // Settled as soon as one requirement fails for good; pending only while the rest is met.
  const open = outcomes.filter((o) => o.status !== 'met');
  const status = open.length === 0 ? 'met' : open.every((o) => o.status === 'pending') ? 'pending' : 'not_met';
  return { status, outcomes };
}
