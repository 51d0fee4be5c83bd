/**
 * Employees in the person data registry, matched by their email (an employee is not a
 * profile user): their record, and their uploaded documents (the export carries each file,
 * decrypted; erasure deletes the files, then the rows). Their held credentials are in
 * compliance's `held_credentials` store, matched by the same email (the holder's).
 */
import type { Knex } from 'knex';
import type { CandidateDataStore, CandidateSubject } from '../../privacy/domain/candidate-data';
import { exportRows } from '../../privacy/storage/table-store';
import type { BlobStore } from '../../credential-documents/domain/blob-store';
import { reviewedDocumentsData } from '../../credential-documents/storage/documents-candidate-data';

const employeesOf = (db: Knex, s: CandidateSubject) => {
  const emails = s.emails.map((e) => e.toLowerCase());
  const query = db('hi_employees').select('id').where({ organization_id: s.organizationId });
  // No email known: no employee is this person.
  return emails.length ? query.whereRaw(`lower(email) IN (${emails.map(() => '?').join(', ')})`, emails) : query.whereRaw('false');
};

export function employeesData(db: Knex): CandidateDataStore {
  const where = (q: Knex.QueryBuilder, s: CandidateSubject) => q.where({ organization_id: s.organizationId }).whereIn('id', employeesOf(db, s));
  return {
    name: 'employees',
    description: 'Employees the host named (their HRIS id, name, email, phone, language, roles), matched by email',
    tables: ['hi_employees'],
    async export(s) {
      return exportRows(await where(db('hi_employees').select('*'), s));
    },
    async erase(s) {
      const rows: unknown[] = await where(db('hi_employees'), s).delete().returning('id');
      return { erased: rows.length };
    },
  };
}

export const employeeDocumentsData = (db: Knex, blobs: BlobStore): CandidateDataStore =>
  reviewedDocumentsData(db, blobs, {
    name: 'employee_documents',
    description: "Documents employees uploaded through a signed link for their roles' requirements, with the review decisions; the export includes each file",
    table: 'hi_employee_documents',
    rowsOf: (knex, s) => knex('hi_employee_documents').select('*').where({ organization_id: s.organizationId }).whereIn('employee_id', employeesOf(knex, s)),
  });
