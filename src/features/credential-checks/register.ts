/**
 * Credential checks: what an applicant presents (VC-JWTs and Data Integrity-secured VCs verified
 * against the issuer's DID and status list; self-reported credentials) matched against a listing's requirements.
 */
import { instanceCachingFactory } from 'tsyringe';
import type { PluginModule } from '../../platform/composition/plugin-module';
import { CLOCK, type Clock } from '../../kernel/clock';
import { LISTING_REQUIREMENTS_STORE, type ListingRequirementsStore } from '../listings/domain/credential-requirements';
import { LISTINGS_DIRECTORY, type ListingsDirectory } from '../listings/domain/listing';
import { CredentialCheckService } from './domain/credential-check-service';
import { CredentialDocumentService } from '../credential-documents/domain/credential-document-service';
import { ApplicationReader } from '../applications/domain/application-reader';
import type { CredentialExaminer, PresentedInput } from './domain/credential-examiner';
import { HELD_CREDENTIAL_VERIFIER, type HeldCredentialVerifier } from '../compliance/domain/held-credential';
import { HeldCredentialReverification } from './domain/held-credential-reverification';
import { credentialCheckRoutes } from './http/credential-checks-router';
import { trustListRoutes } from './http/trust-lists-router';
import { KnexTrustedIssuers } from './storage/knex-trusted-issuers';
import { TRUSTED_ISSUERS_STORE, type TrustedIssuersStore } from './domain/trusted-issuers';
import { noCandidateData } from '../privacy/domain/candidate-data';
import { registerCandidateData } from '../privacy/register';
import type { Database } from '../../platform/database/database';
import { DATABASE } from '../../platform/database/tokens';
// The webhooks' address policy: the same rule for every URL the plugin fetches on someone else's word.
import { pinnedNetwork } from '../../platform/network/pinned-network';
import { DidResolver } from './verification/did-resolver';
import { HttpDocumentFetcher, type DocumentFetcher } from './verification/document-fetcher';
import { selfReported, VcJwtExaminer } from './verification/vc-jwt-examiner';
import { DataIntegrityExaminer } from './verification/data-integrity-examiner';
import { CachingDocumentFetcher } from './verification/caching-document-fetcher';
import { APPLICATION_CREDENTIAL_CHECKER, type ApplicationCredentialChecker } from '../applications/domain/application-credential-check';
import { ENTITLEMENTS, type Entitlements } from '../licensing/domain/entitlements';
import { AutomaticApplicationChecks } from './domain/automatic-application-checks';
import { REQUIREMENTS_WITH_TRUST, type RequirementsWithTrust } from './domain/requirements-with-trust';
import { KnexRequirementsWithTrust } from './storage/knex-requirements-with-trust';
import { VENDOR_CHECK_OUTCOMES, type VendorCheckOutcomes } from './domain/vendor-check-outcomes';
import { ROLE_CREDENTIAL_CHECKER, type RoleCredentialChecker } from '../employees/domain/role-credential-check';
import { RoleCredentialChecks } from './domain/role-credential-checks';

export const DOCUMENT_FETCHER = Symbol('CredentialDocumentFetcher');
/** The VC-JWT and Data Integrity examiners, shared by the checks and the compliance sweep's re-verification. */
const EXAMINERS = Symbol('CredentialExaminers');
type Examiners = { vcJwt: CredentialExaminer; dataIntegrity: CredentialExaminer };

export const credentialChecksModule: PluginModule = {
  name: 'credential-checks',
  register(container, { config }) {
    registerCandidateData(container, noCandidateData('hi_trusted_issuers', "Organizations' trust lists: the issuers accepted per credential type"));
    container.register<TrustedIssuersStore>(TRUSTED_ISSUERS_STORE, {
      useFactory: instanceCachingFactory((c) => new KnexTrustedIssuers(c.resolve<Database>(DATABASE))),
    });
    // Outside production a loopback host answers over http: tests serve did:web documents and status lists locally.
    container.register<DocumentFetcher>(DOCUMENT_FETCHER, {
      useValue: new HttpDocumentFetcher({ allowLoopbackHttp: config.env !== 'production', network: pinnedNetwork({ allowedInternalHosts: [] }) }),
    });
    container.register<Examiners>(EXAMINERS, {
      useFactory: instanceCachingFactory((c) => {
        const fetcher = c.resolve<DocumentFetcher>(DOCUMENT_FETCHER);
        const dids = new DidResolver(fetcher);
        const vcJwt = new VcJwtExaminer(dids, fetcher);
        return { vcJwt, dataIntegrity: new DataIntegrityExaminer(dids, fetcher, (jwt, issuer) => vcJwt.verifiedPayload(jwt, issuer)) };
      }),
    });
    container.register<HeldCredentialVerifier>(HELD_CREDENTIAL_VERIFIER, {
      useFactory: instanceCachingFactory((c) => {
        // The sweep verifies many credentials of few issuers: each DID document and status list is fetched once per sweep (5 minutes).
        const fetcher = new CachingDocumentFetcher(c.resolve<DocumentFetcher>(DOCUMENT_FETCHER), 5 * 60_000);
        const dids = new DidResolver(fetcher);
        const vcJwt = new VcJwtExaminer(dids, fetcher);
        const examiners = { vcJwt, dataIntegrity: new DataIntegrityExaminer(dids, fetcher, (jwt, issuer) => vcJwt.verifiedPayload(jwt, issuer)) };
        return new HeldCredentialReverification(examiners, c.resolve<RequirementsWithTrust>(REQUIREMENTS_WITH_TRUST));
      }),
    });
    container.register(CredentialCheckService, {
      useFactory: instanceCachingFactory((c) => {
        const { vcJwt, dataIntegrity } = c.resolve<Examiners>(EXAMINERS);
        const self = { examine: async (input: PresentedInput) => selfReported(input as Extract<PresentedInput, { format: 'self_reported' }>) };
        return new CredentialCheckService(
          c.resolve<ListingRequirementsStore>(LISTING_REQUIREMENTS_STORE),
          c.resolve<ListingsDirectory>(LISTINGS_DIRECTORY),
          c.resolve<TrustedIssuersStore>(TRUSTED_ISSUERS_STORE),
          { vcJwt, dataIntegrity, selfReported: self },
          () => c.resolve<Clock>(CLOCK).now(),
        );
      }),
    });
    // Employees present verifiable credentials for their roles' requirements: the same examiners and trust lists.
    container.register<RoleCredentialChecker>(ROLE_CREDENTIAL_CHECKER, {
      useFactory: instanceCachingFactory((c) => new RoleCredentialChecks(c.resolve(CredentialCheckService))),
    });
    container.register<RequirementsWithTrust>(REQUIREMENTS_WITH_TRUST, {
      useFactory: instanceCachingFactory((c) => new KnexRequirementsWithTrust(c.resolve<Database>(DATABASE))),
    });
    container.register<ApplicationCredentialChecker>(APPLICATION_CREDENTIAL_CHECKER, {
      useFactory: instanceCachingFactory(
        (c) =>
          new AutomaticApplicationChecks(
            c.resolve<Entitlements>(ENTITLEMENTS),
            c.resolve<RequirementsWithTrust>(REQUIREMENTS_WITH_TRUST),
            c.resolve(CredentialCheckService),
            (organizationId, applicationIds) => c.resolve(CredentialDocumentService).reviewedCredentialsFor(organizationId, applicationIds),
            () => c.resolve<Clock>(CLOCK).now(),
            c.isRegistered(VENDOR_CHECK_OUTCOMES) ? c.resolve<VendorCheckOutcomes>(VENDOR_CHECK_OUTCOMES) : undefined,
          ),
      ),
    });
  },
  routers: [
    {
      name: 'credential-checks',
      create: (container, kit) =>
        kit.build(
          'credential-checks',
          credentialCheckRoutes({
            checks: container.resolve(CredentialCheckService),
            applications: container.resolve(ApplicationReader),
            reviewedDocuments: (organizationId, applicationId) =>
              container.resolve(CredentialDocumentService).reviewedCredentials(organizationId, applicationId),
            now: () => container.resolve<Clock>(CLOCK).now(),
          }),
        ),
    },
    {
      name: 'credential-trust',
      create: (container, kit) =>
        kit.build(
          'credential-trust',
          trustListRoutes(container.resolve<TrustedIssuersStore>(TRUSTED_ISSUERS_STORE), () => container.resolve<Clock>(CLOCK).now()),
        ),
    },
  ],
};
