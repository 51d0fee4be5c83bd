/**
 * Reviewed documents in the candidate data registry, for every subject: an export carries each
 * document's metadata and its content (base64, decrypted: the person's own file); erasure
 * deletes the blobs, then the rows. Retention erases through the same registry.
 */
import type { Knex } from 'knex';
import type { CandidateDataStore, CandidateSubject } from '../../privacy/domain/candidate-data';
import { byOrganizationAndCandidate, exportRows } from '../../privacy/storage/table-store';
import type { BlobStore } from '../domain/blob-store';

/** One subject's documents: its table, and the rows that belong to the person (a query selecting them). */
export interface ReviewedDocumentsOf {
  name: string;
  description: string;
  table: string;
  rowsOf: (db: Knex, subject: CandidateSubject) => Knex.QueryBuilder;
}

export function reviewedDocumentsData(db: Knex, blobs: BlobStore, of: ReviewedDocumentsOf): CandidateDataStore {
  const rowsOf = async (subject: CandidateSubject) => (await of.rowsOf(db, subject)) as Record<string, unknown>[];
  return {
    name: of.name,
    description: of.description,
    tables: [of.table],
    async export(subject) {
      return Promise.all(
        exportRows(await rowsOf(subject)).map(async (row) => {
          const content = await blobs.get(String(row.id));
          return { ...row, content_base64: content ? content.toString('base64') : null };
        }),
      );
    },
    async erase(subject) {
      const rows = await rowsOf(subject);
      // The files first: a row never points at nothing, and a resumed erasure deletes what is left.
      for (const row of rows) await blobs.delete(String(row.id));
      if (rows.length)
        await db(of.table)
          .whereIn(
            'id',
            rows.map((r) => String(r.id)),
          )
          .delete();
      return { erased: rows.length };
    },
  };
}

export const credentialDocumentsData = (db: Knex, blobs: BlobStore): CandidateDataStore =>
  reviewedDocumentsData(db, blobs, {
    name: 'credential_documents',
    description: 'Documents uploaded for credential requirements (licenses, cards) with their review decisions; the export includes each file',
    table: 'hi_credential_documents',
    rowsOf: (knex, subject) => byOrganizationAndCandidate(knex('hi_credential_documents').select('*'), subject),
  });
