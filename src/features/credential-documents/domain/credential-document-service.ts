/**
 * Upload, review and reading of credential documents. An upload is checked before anything
 * is written (the application and requirement exist, the bytes are a PDF, PNG or JPEG within
 * the size bound); the blob is written before its row, so a row never points at nothing.
 */
import { createHash } from 'node:crypto';
import { DomainError, conflict, invalid, notFound } from '../../../kernel/errors';
import { newId } from '../../../kernel/ids';
import type { CredentialRequirement } from '../../listings/domain/credential-requirements';
import type { PresentedCredential } from '../../credential-checks/domain/presented-credential';
import type { BlobStore } from './blob-store';
import type { CredentialDocument, CredentialDocumentRepository } from './credential-document';
import { sniffDocumentType } from './document-type';

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
  constructor(
    private readonly documents: CredentialDocumentRepository,
    private readonly blobs: BlobStore,
    private readonly applications: ApplicationRequirementsLookup,
    private readonly maxBytes: number,
    private readonly now: () => Date,
    /** Hears every approval once it is recorded (compliance tracks the expiry); idempotent. */
    private readonly onApproved: (document: CredentialDocument) => Promise<void> = async () => {},
  ) {}

  async upload(by: UploadedBy, upload: DocumentUpload): Promise<CredentialDocument> {
    const application = await this.applications.find(by.organizationId, upload.applicationId);
    if (!application || (by.profileUserId !== undefined && application.profileUserId !== by.profileUserId)) {
      throw notFound('application', upload.applicationId);
    }
    const requirement = application.requirements.find((r) => r.key === upload.requirementKey);
    if (!requirement) throw invalid('unknown_requirement', `The listing has no requirement "${upload.requirementKey}"`, 'requirement');
    if (upload.content.length > this.maxBytes) {
      throw new DomainError('too_large', 'document_too_large', `The document is larger than ${this.maxBytes} bytes`);
    }
    const mediaType = sniffDocumentType(upload.content);
    if (!mediaType) throw invalid('unsupported_document_type', 'The document must be a PDF, PNG or JPEG file (read from its content)', 'content_base64');
    const document: CredentialDocument = {
      id: newId('cdoc'),
      organizationId: by.organizationId,
      applicationId: upload.applicationId,
      listingId: application.listingId,
      profileUserId: application.profileUserId,
      requirementKey: requirement.key,
      credentialType: requirement.credential_type,
      fileName: upload.fileName,
      mediaType,
      sizeBytes: upload.content.length,
      sha256: createHash('sha256').update(upload.content).digest('hex'),
      status: 'pending_review',
      expiresAt: null,
      rejectionReason: null,
      reviewedBy: null,
      reviewedAt: null,
      createdAt: this.now(),
    };
    await this.blobs.put(document.id, upload.content);
    await this.documents.insert(document);
    return document;
  }

  async get(organizationId: string, id: string): Promise<CredentialDocument> {
    const document = await this.documents.get(organizationId, id);
    if (!document) throw notFound('credential document', id);
    return document;
  }

  async listForApplication(organizationId: string, applicationId: string): Promise<CredentialDocument[]> {
    if (!(await this.applications.find(organizationId, applicationId))) throw notFound('application', applicationId);
    return this.documents.listForApplication(organizationId, applicationId);
  }

  async content(organizationId: string, id: string): Promise<{ document: CredentialDocument; content: Buffer }> {
    const document = await this.get(organizationId, id);
    const content = await this.blobs.get(document.id);
    if (!content) throw notFound('credential document', id);
    return { document, content };
  }

  async approve(organizationId: string, id: string, expiresAt: Date, reviewedBy: string): Promise<CredentialDocument> {
    const approved = await this.decide(organizationId, id, { decision: 'approve', expiresAt, reviewedBy, at: this.now() });
    await this.onApproved(approved);
    return approved;
  }

  async reject(organizationId: string, id: string, reason: string, reviewedBy: string): Promise<CredentialDocument> {
    return this.decide(organizationId, id, { decision: 'reject', reason, reviewedBy, at: this.now() });
  }

  /** An application's approved documents, as credentials a reviewer verified (the checks match them). */
  async reviewedCredentials(organizationId: string, applicationId: string): Promise<PresentedCredential[]> {
    return (await this.reviewedCredentialsFor(organizationId, [applicationId])).get(applicationId) ?? [];
  }

  /** The same for many applications in one read, by application id. */
  async reviewedCredentialsFor(organizationId: string, applicationIds: string[]): Promise<Map<string, PresentedCredential[]>> {
    const byApplication = new Map<string, PresentedCredential[]>();
    for (const d of await this.documents.listApproved(organizationId, applicationIds)) {
      const list = byApplication.get(d.applicationId) ?? [];
      list.push(reviewedCredential(d));
      byApplication.set(d.applicationId, list);
    }
    return byApplication;
  }

  private async decide(organizationId: string, id: string, decision: Parameters<CredentialDocumentRepository['decide']>[2]): Promise<CredentialDocument> {
    const current = await this.get(organizationId, id);
    if (current.status !== 'pending_review') throw alreadyReviewed(current);
    const decided = await this.documents.decide(organizationId, id, decision);
    // Another reviewer decided between the read and the write: theirs stands.
    if (!decided) throw alreadyReviewed(await this.get(organizationId, id));
    return decided;
  }
}

const alreadyReviewed = (document: CredentialDocument) =>
  conflict('document_already_reviewed', `The document was already ${document.status}; upload a new one for a new review`, { status: document.status });

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
