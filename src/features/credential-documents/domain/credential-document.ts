/**
 * A document uploaded for one credential requirement of an application (a nursing license
 * scan, a food handler card photo), and a reviewer's decision on it. Approved with the
 * expiry date the reviewer read on it, it meets the requirement until that date.
 */
import type { DocumentMediaType } from './document-type';

export type DocumentStatus = 'pending_review' | 'approved' | 'rejected';

export interface CredentialDocument {
  id: string;
  organizationId: string;
  applicationId: string;
  listingId: string;
  profileUserId: string;
  requirementKey: string;
  /** The requirement's credential type when uploaded: what an approval attests. */
  credentialType: string;
  fileName: string;
  mediaType: DocumentMediaType;
  sizeBytes: number;
  sha256: string;
  status: DocumentStatus;
  expiresAt: Date | null;
  rejectionReason: string | null;
  /** The API key (its id) that decided. */
  reviewedBy: string | null;
  reviewedAt: Date | null;
  createdAt: Date;
}

export type ReviewDecision =
  { decision: 'approve'; expiresAt: Date; reviewedBy: string; at: Date } | { decision: 'reject'; reason: string; reviewedBy: string; at: Date };

export interface CredentialDocumentRepository {
  insert(document: CredentialDocument): Promise<void>;
  get(organizationId: string, id: string): Promise<CredentialDocument | undefined>;
  listForApplication(organizationId: string, applicationId: string): Promise<CredentialDocument[]>;
  /** The approved documents of many applications, oldest first. */
  listApproved(organizationId: string, applicationIds: string[]): Promise<CredentialDocument[]>;
  /** Records the decision only while the document awaits review; undefined when it no longer does. */
  decide(organizationId: string, id: string, decision: ReviewDecision): Promise<CredentialDocument | undefined>;
}

export const CREDENTIAL_DOCUMENT_REPOSITORY = Symbol('CredentialDocumentRepository');
