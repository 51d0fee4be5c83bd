/**
 * A reviewed document whose subject is an employee's role: uploaded through a signed link for
 * one requirement of one of their roles (the review itself is credential-documents' DocumentReview).
 */
import type { ReviewedDocument, ReviewedDocumentRepository } from '../../credential-documents/domain/reviewed-document';

export type EmployeeSubject = {
  employeeId: string;
  roleId: string;
};

export type EmployeeDocument = ReviewedDocument<EmployeeSubject>;

export const EMPLOYEE_DOCUMENT_REPOSITORY = Symbol('EmployeeDocumentRepository');
export type EmployeeDocumentRepository = ReviewedDocumentRepository<EmployeeSubject>;
