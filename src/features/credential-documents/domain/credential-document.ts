/**
 * A reviewed document whose subject is a candidate's application: uploaded for one of the
 * listing's credential requirements by the candidate (or the organization for them).
 */
import type { ReviewedDocument, ReviewedDocumentRepository } from './reviewed-document';

export type ApplicationSubject = {
  applicationId: string;
  listingId: string;
  profileUserId: string;
};

export type CredentialDocument = ReviewedDocument<ApplicationSubject>;

export const CREDENTIAL_DOCUMENT_REPOSITORY = Symbol('CredentialDocumentRepository');
export type CredentialDocumentRepository = ReviewedDocumentRepository<ApplicationSubject>;
