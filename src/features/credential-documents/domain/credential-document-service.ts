/**
 * Upload, review and reading of credential documents: the application and its requirement
 * are checked here, the file and the decision by the review every reviewed document shares.
 */
import { invalid, notFound } from '../../../kernel/errors';
import type { CredentialRequirement } from '../../listings/domain/credential-requirements';
import type { PresentedCredential } from '../../credential-checks/domain/presented-credential';
import type { BlobStore } from './blob-store';
import type { ApplicationSubject, CredentialDocument, CredentialDocumentRepository } from './credential-document';
import { DocumentReview } from './document-review';

export interface UploadedBy {
  organizationId: string;
  /** A candidate uploads only for their own applications. */
  profileUserId?: string;
}

export interface DocumentUpload {
  applicationId: string;
  requirementKey: string;
  fileName: string;
  content: Buffer;
}

/** What the service needs of applications and listings, without their features' storage. */
export interface ApplicationRequirementsLookup {
  /** The application (another organization's answers undefined) with its listing's requirements. */
  find(organizationId: string, applicationId: string): Promise<{ listingId: string; profileUserId: string; requirements: CredentialRequirement[] } | undefined>;
}

export class CredentialDocumentService {
  private readonly review: DocumentReview<ApplicationSubject>;

  constructor(
    documents: CredentialDocumentRepository,
    blobs: BlobStore,
    private readonly applications: ApplicationRequirementsLookup,
    maxBytes: number,
    now: () => Date,
    /** Hears every approval once it is recorded (compliance tracks the expiry); idempotent. */
    private readonly onApproved: (document: CredentialDocument) => Promise<void> = async () => {},
  ) {
    this.review = new DocumentReview(
      documents,
      blobs,
      {
        noun: 'credential document',
        idPrefix: 'cdoc',
        maxBytes,
        unsupportedType: (message) => invalid('unsupported_document_type', message, 'content_base64'),
      },
      now,
    );
  }

  async upload(by: UploadedBy, upload: DocumentUpload): Promise<CredentialDocument> {
    const application = await this.applications.find(by.organizationId, upload.applicationId);
    if (!application || (by.profileUserId !== undefined && application.profileUserId !== by.profileUserId)) {
      throw notFound('application', upload.applicationId);
    }
    const requirement = application.requirements.find((r) => r.key === upload.requirementKey);
    if (!requirement) throw invalid('unknown_requirement', `The listing has no requirement "${upload.requirementKey}"`, 'requirement');
    const subject = { applicationId: upload.applicationId, listingId: application.listingId, profileUserId: application.profileUserId };
    return this.review.receive(by.organizationId, subject, requirement, upload);
  }

  get(organizationId: string, id: string): Promise<CredentialDocument> {
    return this.review.get(organizationId, id);
  }

  async listForApplication(organizationId: string, applicationId: string): Promise<CredentialDocument[]> {
    if (!(await this.applications.find(organizationId, applicationId))) throw notFound('application', applicationId);
    return this.review.list(organizationId, { applicationId });
  }

  content(organizationId: string, id: string): Promise<{ document: CredentialDocument; content: Buffer }> {
    return this.review.content(organizationId, id);
  }

  async approve(organizationId: string, id: string, expiresAt: Date, reviewedBy: string): Promise<CredentialDocument> {
    const approved = await this.review.approve(organizationId, id, expiresAt, reviewedBy);
    await this.onApproved(approved);
    return approved;
  }

  reject(organizationId: string, id: string, reason: string, reviewedBy: string): Promise<CredentialDocument> {
    return this.review.reject(organizationId, id, reason, reviewedBy);
  }

  /** An application's approved documents, as credentials a reviewer verified (the checks match them). */
  async reviewedCredentials(organizationId: string, applicationId: string): Promise<PresentedCredential[]> {
    return (await this.reviewedCredentialsFor(organizationId, [applicationId])).get(applicationId) ?? [];
  }

  /** The same for many applications in one read, by application id. */
  async reviewedCredentialsFor(organizationId: string, applicationIds: string[]): Promise<Map<string, PresentedCredential[]>> {
    const byApplication = new Map<string, PresentedCredential[]>();
    for (const d of await this.review.listApproved(organizationId, 'applicationId', applicationIds)) {
      const list = byApplication.get(d.applicationId) ?? [];
      list.push(reviewedCredential(d));
      byApplication.set(d.applicationId, list);
    }
    return byApplication;
  }
}

/** A document a reviewer approved, as the checks see it: verified by that person, valid until the expiry they read. */
export const reviewedCredential = (d: CredentialDocument): PresentedCredential => ({
  source: 'document_review',
  id: d.id,
  types: [d.credentialType],
  issuer: `reviewer:${d.reviewedBy ?? 'organization'}`,
  name: d.fileName,
  validFrom: d.reviewedAt,
  validUntil: d.expiresAt,
  verification: { status: 'verified', reason: null },
});
