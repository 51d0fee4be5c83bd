/**
 * Envelopes as a store of candidate data: the signer's name, email, phone, language, the
 * document text, the signature (typed name; the drawn mark and the PDFs are left out of the
 * export as bytes, they are the organization's record of what was signed), the audit events
 * with IP and user agent. Erasure deletes the envelopes.
 */
import type { Knex } from 'knex';
import type { CandidateDataStore } from '../../privacy/domain/candidate-data';
import { tableStore } from '../../privacy/storage/table-store';

export const envelopeCandidateStore = (db: Knex): CandidateDataStore =>
  tableStore(db, {
    name: 'esign_envelopes',
    description:
      'Documents sent for e-signature: the signer’s name, email, phone and language, the document, the signature and the audit events (IP, user agent)',
    table: 'hi_esign_envelopes',
    omit: ['document', 'signed_document', 'signature_image'],
    where: (query, subject) =>
      query.where({ organization_id: subject.organizationId }).where((w) =>
        w
          .whereIn(
            'signer_email',
            subject.emails.map((e) => e.toLowerCase()),
          )
          .orWhereIn('signer_phone', [...subject.phones]),
      ),
  });
