/**
 * Checks applications against their listing's requirements on their own, for organizations
 * holding a verification action: the profile's imported credentials (self-reported until
 * the provider presents proofs) and the documents a reviewer approved. One query for the
 * requirements and trust lists of every listing involved, one for the documents.
 */
import type { Entitlements } from '../../licensing/domain/entitlements';
import type { ApplicationCredentialCheck, ApplicationCredentialChecker, CheckedApplication } from '../../applications/domain/application-credential-check';
import type { CredentialCheckService } from './credential-check-service';
import type { PresentedInput } from './credential-examiner';
import type { PresentedCredential } from './presented-credential';
import type { RequirementsWithTrust } from './requirements-with-trust';
import { VERIFICATION_ACTIONS } from './verification-actions';

export class AutomaticApplicationChecks implements ApplicationCredentialChecker {
  constructor(
    private readonly entitlements: Entitlements,
    private readonly requirements: RequirementsWithTrust,
    private readonly checks: CredentialCheckService,
    /** Approved documents per application id (absent: none). */
    private readonly reviewedDocuments: (organizationId: string, applicationIds: string[]) => Promise<Map<string, PresentedCredential[]>>,
    private readonly now: () => Date,
  ) {}

  async holdsVerificationAction(organizationId: string): Promise<boolean> {
    const held = await Promise.all(VERIFICATION_ACTIONS.map((action) => this.entitlements.isActive(organizationId, action)));
    return held.some(Boolean);
  }

  async checkAll(organizationId: string, applications: CheckedApplication[]): Promise<Map<string, ApplicationCredentialCheck>> {
    const results = new Map<string, ApplicationCredentialCheck>();
    if (applications.length === 0 || !(await this.holdsVerificationAction(organizationId))) return results;
    const byListing = await this.requirements.load(organizationId, [...new Set(applications.map((a) => a.listingId))]);
    const checked = applications.filter((a) => byListing.has(a.listingId));
    if (checked.length === 0) return results;
    const documents = await this.reviewedDocuments(
      organizationId,
      checked.map((a) => a.id),
    );
    const checkedAt = this.now().toISOString();
    for (const application of checked) {
      // A provider's `verified: true` is its word, not a proof: profile credentials enter as self-reported.
      const inputs: PresentedInput[] = application.importedCredentials.map((c) => ({ format: 'self_reported', title: c.title, issuer: c.issuer }));
      const result = await this.checks.check(byListing.get(application.listingId) ?? [], inputs, documents.get(application.id) ?? []);
      results.set(application.id, { status: result.status, requirements: result.outcomes, checked_at: checkedAt });
    }
    return results;
  }
}
