/**
 * A document an employee uploaded through a signed link for one requirement of one of their
 * roles, and a reviewer's decision on it (approved with the expiry read on it, or rejected).
 */
import type { DocumentMediaType } from '../../credential-documents/domain/document-type';

export type EmployeeDocumentStatus = 'pending_review' | 'approved' | 'rejected';

export interface EmployeeDocument {
  id: string;
  organizationId: string;
  employeeId: string;
  roleId: string;
  requirementKey: string;
  credentialType: string;
  fileName: string;
  mediaType: DocumentMediaType;
  sizeBytes: number;
  sha256: string;
  status: EmployeeDocumentStatus;
  expiresAt: Date | null;
  rejectionReason: string | null;
  reviewedBy: string | null;
  reviewedAt: Date | null;
  createdAt: Date;
}

export type EmployeeDocumentDecision =
  { decision: 'approve'; expiresAt: Date; reviewedBy: string; at: Date } | { decision: 'reject'; reason: string; reviewedBy: string; at: Date };

export interface EmployeeDocumentRepository {
  insert(document: EmployeeDocument): Promise<void>;
  get(organizationId: string, employeeId: string, id: string): Promise<EmployeeDocument | undefined>;
  listForEmployee(organizationId: string, employeeId: string): Promise<EmployeeDocument[]>;
  /** Records the decision only while the document awaits review; undefined when it no longer does. */
  decide(organizationId: string, id: string, decision: EmployeeDocumentDecision): Promise<EmployeeDocument | undefined>;
}

export const EMPLOYEE_DOCUMENT_REPOSITORY = Symbol('EmployeeDocumentRepository');
