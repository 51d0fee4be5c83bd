/**
 * Verifies a kept verifiable credential again for the compliance sweep: the same examination
 * as when it was presented (proof, validity, the issuer's status list fetched anew), then
 * today's trust list for its requirement, a listing's or an employee's role's (the requirement's
 * issuers, else the organization's list for the type). Its expiry is not judged here: the sweep's expiry notices do that.
 */
import type { HeldCredential, HeldCredentialVerifier, ReverificationOutcome } from '../../compliance/domain/held-credential';
import type { CredentialExaminer, PresentedInput } from './credential-examiner';
import type { RequirementsWithTrust } from './requirements-with-trust';

export class HeldCredentialReverification implements HeldCredentialVerifier {
  constructor(
    private readonly examiners: { vcJwt: CredentialExaminer; dataIntegrity: CredentialExaminer },
    private readonly requirements: RequirementsWithTrust,
  ) {}

  async reverify(held: HeldCredential, at: Date): Promise<ReverificationOutcome> {
    const kept = held.kept;
    if (!kept) return { state: 'active' };
    let input: PresentedInput;
    try {
      input = kept.format === 'vc+jwt' ? { format: 'vc+jwt', credential: kept.credential } : { format: 'vc+ld+json', credential: JSON.parse(kept.credential) };
    } catch {
      return { state: 'unavailable', reason: 'credential_malformed' };
    }
    const examined = await (input.format === 'vc+jwt' ? this.examiners.vcJwt : this.examiners.dataIntegrity).examine(input, at);
    const { status, reason } = examined.verification;
    if (reason === 'credential_revoked' || reason === 'credential_suspended') return { state: 'revoked', reason };
    if (reason === 'signature_invalid' || reason === 'issuer_mismatch') return { state: 'untrusted', reason: 'signature_invalid' };
    // A list or DID document that did not answer says nothing yet: the next sweep asks again.
    if (status !== 'verified') return { state: 'unavailable', reason: reason ?? 'unverified' };
    // An employee's credential is for a requirement of their role (listingId names the role).
    const load =
      held.subject === 'employee'
        ? this.requirements.loadRoles(held.organizationId, [held.listingId])
        : this.requirements.load(held.organizationId, [held.listingId]);
    const requirement = (await load).get(held.listingId)?.find((r) => r.key === held.requirementKey);
    // A requirement since removed judges nothing; the credential stays as it was.
    if (requirement && requirement.issuers.length > 0 && !requirement.issuers.includes(examined.issuer))
      return { state: 'untrusted', reason: 'issuer_untrusted' };
    return { state: 'active' };
  }
}
