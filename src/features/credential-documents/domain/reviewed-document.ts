/**
 * One reviewed-document concept for every subject that must hold a credential: a file uploaded
 * for one credential requirement (a nursing license scan, a food handler card photo) and a
 * reviewer's decision on it. Approved with the expiry date the reviewer read on it, it meets
 * the requirement until that date. The subject says whose requirement: a candidate's
 * application to a listing, or an employee's role (`S` carries its ids).
 */
import type { DocumentMediaType } from './document-type';

export type DocumentStatus = 'pending_review' | 'approved' | 'rejected';

/** What names a document's subject: field name → id (application, listing, profile user; or employee, role). */
export type DocumentSubject = Record<string, string>;

export type ReviewedDocument<S extends DocumentSubject> = S & {
  id: string;
  organizationId: string;
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
  /** The API key (its prefix) that decided. */
  reviewedBy: string | null;
  reviewedAt: Date | null;
  createdAt: Date;
};

export type ReviewDecision =
  { decision: 'approve'; expiresAt: Date; reviewedBy: string; at: Date } | { decision: 'reject'; reason: string; reviewedBy: string; at: Date };

export interface ReviewedDocumentRepository<S extends DocumentSubject> {
  insert(document: ReviewedDocument<S>): Promise<void>;
  /** `of` narrows to one subject (an employee's document is read under that employee only). */
  get(organizationId: string, id: string, of?: Partial<S>): Promise<ReviewedDocument<S> | undefined>;
  /** A subject's documents, oldest first. */
  list(organizationId: string, of: Partial<S>): Promise<ReviewedDocument<S>[]>;
  /** The approved documents of many subjects (`field` one of theirs, in `ids`), oldest first. */
  listApproved(organizationId: string, field: keyof S & string, ids: string[]): Promise<ReviewedDocument<S>[]>;
  /** Records the decision only while the document awaits review; undefined when it no longer does. */
  decide(organizationId: string, id: string, decision: ReviewDecision): Promise<ReviewedDocument<S> | undefined>;
}
