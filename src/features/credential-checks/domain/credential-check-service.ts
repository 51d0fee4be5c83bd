/**
 * Checks what an applicant presents against a listing's requirements: each credential is
 * examined by its source (a VC-JWT's or a Data Integrity proof, or nothing for a self-reported one), then the
 * pure matcher decides every requirement. Nothing is stored here: the caller keeps the
 * result where it belongs (an application, a compliance record).
 */
import type { CredentialRequirement, ListingRequirementsStore } from '../../listings/domain/credential-requirements';
import type { ListingsDirectory } from '../../listings/domain/listing';
import { isListingId } from '../../listings/domain/listing-id';
import { notFound } from '../../../kernel/errors';
import type { CredentialExaminer, PresentedInput } from './credential-examiner';
import { matchRequirements, type CheckSummary } from './match-requirements';
import type { PresentedCredential } from './presented-credential';
import { trustKey, type TrustedIssuersStore } from './trusted-issuers';

export interface CheckResult extends CheckSummary {
  credentials: PresentedCredential[];
}

export class CredentialCheckService {
  constructor(
    private readonly requirements: ListingRequirementsStore,
    private readonly listings: ListingsDirectory,
    private readonly trust: TrustedIssuersStore,
    private readonly examiners: { vcJwt: CredentialExaminer; dataIntegrity: CredentialExaminer; selfReported: CredentialExaminer },
    private readonly now: () => Date,
  ) {}

  async examineAll(inputs: PresentedInput[]): Promise<PresentedCredential[]> {
    const now = this.now();
    const examinerFor = (input: PresentedInput) =>
      input.format === 'vc+jwt' ? this.examiners.vcJwt : input.format === 'vc+ld+json' ? this.examiners.dataIntegrity : this.examiners.selfReported;
    return Promise.all(inputs.map((input) => examinerFor(input).examine(input, now)));
  }

  /** `examined`: credentials another source already verified (documents a reviewer approved). */
  async check(requirements: CredentialRequirement[], inputs: PresentedInput[], examined: PresentedCredential[] = []): Promise<CheckResult> {
    const credentials = [...(await this.examineAll(inputs)), ...examined];
    return { ...matchRequirements(requirements, credentials, this.now()), credentials };
  }

  /** Another organization's listing is not found, exactly as an unknown one. */
  async checkForListing(organizationId: string, listingId: string, inputs: PresentedInput[], examined: PresentedCredential[] = []): Promise<CheckResult> {
    const listing = isListingId(listingId) ? await this.listings.get(listingId) : undefined;
    if (!listing || listing.organizationId !== organizationId) throw notFound('listing', listingId);
    return this.check(await this.withTrustLists(organizationId, await this.requirements.get(organizationId, listing.id)), inputs, examined);
  }

  /** Requirements that are not a listing's (an employee's role): the organization's trust lists applied the same way. */
  async checkWithTrustLists(organizationId: string, requirements: CredentialRequirement[], inputs: PresentedInput[]): Promise<CheckResult> {
    return this.check(await this.withTrustLists(organizationId, requirements), inputs);
  }

  /** A requirement naming no issuers takes the organization's trust list for its type, when there is one. */
  private async withTrustLists(organizationId: string, requirements: CredentialRequirement[]): Promise<CredentialRequirement[]> {
    if (requirements.every((r) => r.issuers.length > 0)) return requirements;
    const lists = new Map((await this.trust.list(organizationId)).map((l) => [trustKey(l.credentialType), l.issuers]));
    return requirements.map((r) => (r.issuers.length > 0 ? r : { ...r, issuers: lists.get(trustKey(r.credential_type)) ?? [] }));
  }
}
