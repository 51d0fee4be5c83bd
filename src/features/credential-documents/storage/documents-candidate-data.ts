/**
 * Credential documents in the candidate data registry: an export carries each document's
 * metadata and its content (base64, decrypted: the candidate's own file); erasure deletes
 * the blobs, then the rows. Retention erases through the same registry.
 */
import type { Knex } from 'knex';
import type { CandidateDataStore } from '../../privacy/domain/candidate-data';
import { byOrganizationAndCandidate, exportRows } from '../../privacy/storage/table-store';
import type { BlobStore } from '../domain/blob-store';

const TABLE = 'hi_credential_documents';

export function credentialDocumentsData(db: Knex, blobs: BlobStore): CandidateDataStore {
  const rowsOf = (subject: Parameters<CandidateDataStore['export']>[0]) =>
    byOrganizationAndCandidate(db(TABLE).select('*'), subject) as Promise<Record<string, unknown>[]>;
  return {
    name: 'credential_documents',
    description: 'Documents uploaded for credential requirements (licenses, cards) with their review decisions; the export includes each file',
    tables: [TABLE],
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
      for (const row of rows) await blobs.delete(String(row.id));
      await byOrganizationAndCandidate(db(TABLE), subject).delete();
      return { erased: rows.length };
    },
  };
}
