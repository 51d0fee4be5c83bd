/** Mounted at /v1/credential-checks: what an applicant presents, checked against a listing's requirements. */
import type { Principal } from '../../../platform/http/principal';
import { defineRoute, z, type RouteDefinition } from '../../../platform/http/route';
import type { CredentialCheckService } from '../domain/credential-check-service';
import type { PresentedInput } from '../domain/credential-examiner';
import type { CheckResult } from '../domain/credential-check-service';
import type { PresentedCredential } from '../domain/presented-credential';
import type { ApplicationReader } from '../../applications/domain/application-reader';
import { createCheckBody, credentialCheckSchema } from './credential-check-schemas';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;

type CheckView = z.output<typeof credentialCheckSchema>;

function checkView(listingId: string, applicationId: string | null, result: CheckResult, checkedAt: Date): CheckView {
  return {
    object: 'credential_check',
    listing_id: listingId,
    application_id: applicationId,
    status: result.status,
    requirements: result.outcomes,
    credentials: result.credentials.map((c) => ({
      source: c.source,
      id: c.id,
      types: c.types,
      issuer: c.issuer,
      name: c.name,
      valid_from: c.validFrom?.toISOString() ?? null,
      valid_until: c.validUntil?.toISOString() ?? null,
      verification: c.verification,
    })),
    checked_at: checkedAt.toISOString(),
  };
}

export function credentialCheckRoutes(deps: {
  checks: CredentialCheckService;
  applications: ApplicationReader;
  /** Documents a reviewer approved for the application, as verified credentials. */
  reviewedDocuments: (organizationId: string, applicationId: string) => Promise<PresentedCredential[]>;
  now: () => Date;
}): RouteDefinition<any, any, any>[] {
  return [
    defineRoute({
      method: 'post',
      path: '/',
      operationId: 'createCredentialCheck',
      summary:
        "Check presented credentials (VC-JWT, self-reported) against a listing's requirements: each requirement met, missing, expired, unverified or pending, with evidence",
      tags: ['credentials'],
      auth: ['organization'],
      body: createCheckBody,
      response: credentialCheckSchema,
      errors: [404],
      handler: async ({ principal, body }): Promise<z.output<typeof credentialCheckSchema>> => {
        const result = await deps.checks.checkForListing(orgId(principal), body.listing_id, body.credentials as PresentedInput[]);
        return checkView(body.listing_id, null, result, deps.now());
      },
    }),
    defineRoute({
      method: 'get',
      path: '/applications/:application_id',
      operationId: 'getApplicationCredentialCheck',
      summary:
        "An application's imported credentials and reviewer-approved documents checked against its listing's requirements as they stand now (profile credentials are self-reported until the provider presents proofs)",
      tags: ['credentials'],
      auth: ['organization'],
      params: z.object({ application_id: z.string().max(100) }),
      response: credentialCheckSchema,
      handler: async ({ principal, params }): Promise<CheckView> => {
        const organizationId = orgId(principal);
        const application = await deps.applications.get(organizationId, params.application_id);
        // A provider's `verified: true` is its word, not a proof: profile credentials enter as self-reported.
        const inputs: PresentedInput[] = application.importedCredentials.map((c) => ({ format: 'self_reported', title: c.title, issuer: c.issuer }));
        const reviewed = await deps.reviewedDocuments(organizationId, application.id);
        const result = await deps.checks.checkForListing(organizationId, application.listingId, inputs, reviewed);
        return checkView(application.listingId, application.id, result, deps.now());
      },
    }),
  ];
}
