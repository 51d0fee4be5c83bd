/**
 * Checks applications against their listing's requirements on their own, for organizations
 * holding a verification action: the profile's imported credentials (self-reported until
 * the provider presents proofs), the documents a reviewer approved, and the background check
 * the listing's policy ordered from the vendor. One query for the
 * requirements and trust lists of every listing involved, one for the documents.
 */
import type { Entitlements } from '../../licensing/domain/entitlements';
import type { ApplicationCredentialCheck, ApplicationCredentialChecker, CheckedApplication } from '../../applications/domain/application-credential-check';
import type { CredentialCheckService } from './credential-check-service';
import type { PresentedInput } from './credential-examiner';
import type { PresentedCredential } from './presented-credential';
import type { RequirementsWithTrust } from './requirements-with-trust';
import { VERIFICATION_ACTIONS } from './verification-actions';
import { summarize } from './match-requirements';
import { noVendorCheckOutcomes, type VendorCheckOutcomes } from './vendor-check-outcomes';

export class AutomaticApplicationChecks implements ApplicationCredentialChecker {
  constructor(
    private readonly entitlements: Entitlements,
    private readonly requirements: RequirementsWithTrust,
    private readonly checks: CredentialCheckService,
    /** Approved documents per application id (absent: none). */
    private readonly reviewedDocuments: (organizationId: string, applicationIds: string[]) => Promise<Map<string, PresentedCredential[]>>,
    private readonly now: () => Date,
    /** The background checks listing policies order (absent without the background-checks feature). */
    private readonly vendorChecks: VendorCheckOutcomes = noVendorCheckOutcomes,
  ) {}

  async holdsVerificationAction(organizationId: string): Promise<boolean> {
    const held = await Promise.all(VERIFICATION_ACTIONS.map((action) => this.entitlements.isActive(organizationId, action)));
    return held.some(Boolean);
  }

  async checkAll(organizationId: string, applications: CheckedApplication[]): Promise<Map<string, ApplicationCredentialCheck>> {
    const results = new Map<string, ApplicationCredentialCheck>();
    if (applications.length === 0 || !(await this.holdsVerificationAction(organizationId))) return results;
    const byListing = await this.requirements.load(organizationId, [...new Set(applications.map((a) => a.listingId))]);
    const vendor = await this.vendorChecks.of(organizationId, applications);
    const checked = applications.filter((a) => byListing.has(a.listingId) || vendor.has(a.id));
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
      // The vendor decides its requirement keys: its outcome replaces a listed requirement of that key, or joins the list.
      const vendorOutcomes = vendor.get(application.id) ?? [];
      const decided = new Map(vendorOutcomes.map((o) => [o.requirement, o]));
      const outcomes = [
        ...result.outcomes.map((o) => decided.get(o.requirement) ?? o),
        ...vendorOutcomes.filter((o) => !result.outcomes.some((r) => r.requirement === o.requirement)),
      ];
      results.set(application.id, {
        status: vendorOutcomes.length > 0 ? summarize(outcomes).status : result.status,
        requirements: outcomes,
        checked_at: checkedAt,
      });
    }
    return results;
  }
}
