/**
 * The review of uploaded documents, whatever their subject: an upload is checked before
 * anything is written (size, then the type read from the bytes); the blob is written before
 * its row, so a row never points at nothing; a decision is taken once (a second reviewer
 * gets 409 document_already_reviewed, the first decision stands).
 */
import { createHash } from 'node:crypto';
import { DomainError, conflict, notFound } from '../../../kernel/errors';
import { newId, type IdPrefix } from '../../../kernel/ids';
import type { CredentialRequirement } from '../../listings/domain/credential-requirements';
import type { BlobStore } from './blob-store';
import { sniffDocumentType } from './document-type';
import type { DocumentSubject, ReviewDecision, ReviewedDocument, ReviewedDocumentRepository } from './reviewed-document';

export interface DocumentReviewOptions {
  /** What a 404 names ("credential document", "employee document"). */
  noun: string;
  idPrefix: IdPrefix;
  maxBytes: number;
  /** The error for bytes that are no PDF, PNG or JPEG (each API keeps the status it published). */
  unsupportedType: (message: string) => DomainError;
}

export class DocumentReview<S extends DocumentSubject> {
  constructor(
    private readonly documents: ReviewedDocumentRepository<S>,
    private readonly blobs: BlobStore,
    private readonly options: DocumentReviewOptions,
    private readonly now: () => Date,
  ) {}

  /** A new document awaiting review, for `requirement` of `subject`. */
  async receive(
    organizationId: string,
    subject: S,
    requirement: CredentialRequirement,
    upload: { fileName: string; content: Buffer },
  ): Promise<ReviewedDocument<S>> {
    const { maxBytes } = this.options;
    if (upload.content.length > maxBytes) throw new DomainError('too_large', 'document_too_large', `The document is larger than ${maxBytes} bytes`);
    const mediaType = sniffDocumentType(upload.content);
    if (!mediaType) throw this.options.unsupportedType('The document must be a PDF, PNG or JPEG file (read from its content)');
    const document = {
      ...subject,
      id: newId(this.options.idPrefix),
      organizationId,
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
    } as ReviewedDocument<S>;
    await this.blobs.put(document.id, upload.content);
    await this.documents.insert(document);
    return document;
  }

  async get(organizationId: string, id: string, of?: Partial<S>): Promise<ReviewedDocument<S>> {
    const document = await this.documents.get(organizationId, id, of);
    if (!document) throw notFound(this.options.noun, id);
    return document;
  }

  list(organizationId: string, of: Partial<S>): Promise<ReviewedDocument<S>[]> {
    return this.documents.list(organizationId, of);
  }

  listApproved(organizationId: string, field: keyof S & string, ids: string[]): Promise<ReviewedDocument<S>[]> {
    return this.documents.listApproved(organizationId, field, ids);
  }

  /** The file itself, decrypted (an erased blob is a 404 like its document). */
  async content(organizationId: string, id: string, of?: Partial<S>): Promise<{ document: ReviewedDocument<S>; content: Buffer }> {
    const document = await this.get(organizationId, id, of);
    const content = await this.blobs.get(document.id);
    if (!content) throw notFound(this.options.noun, id);
    return { document, content };
  }

  approve(organizationId: string, id: string, expiresAt: Date, reviewedBy: string, of?: Partial<S>): Promise<ReviewedDocument<S>> {
    return this.decide(organizationId, id, { decision: 'approve', expiresAt, reviewedBy, at: this.now() }, of);
  }

  reject(organizationId: string, id: string, reason: string, reviewedBy: string, of?: Partial<S>): Promise<ReviewedDocument<S>> {
    return this.decide(organizationId, id, { decision: 'reject', reason, reviewedBy, at: this.now() }, of);
  }

  /** Deletes the files of a subject's documents (their rows go with the subject's). */
  async deleteFiles(organizationId: string, of: Partial<S>): Promise<void> {
    for (const d of await this.documents.list(organizationId, of)) await this.blobs.delete(d.id);
  }

  private async decide(organizationId: string, id: string, decision: ReviewDecision, of?: Partial<S>): Promise<ReviewedDocument<S>> {
    const current = await this.get(organizationId, id, of);
    if (current.status !== 'pending_review') throw alreadyReviewed(current);
    const decided = await this.documents.decide(organizationId, id, decision);
    // Another reviewer decided between the read and the write: theirs stands.
    if (!decided) throw alreadyReviewed(await this.get(organizationId, id, of));
    return decided;
  }
}

const alreadyReviewed = (document: { status: string }) =>
  conflict('document_already_reviewed', `The document was already ${document.status}; upload a new one for a new review`, { status: document.status });
