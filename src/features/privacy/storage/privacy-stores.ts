/** The privacy feature's own stores: exports hold a copy of everything; released legal holds name the candidate. */
import type { Knex } from 'knex';
import { candidateStore, noCandidateData, type CandidateDataRegistration } from '../domain/candidate-data';
import { tableStore } from './table-store';

export function privacyStores(db: Knex): CandidateDataRegistration[] {
  return [
    candidateStore(
      tableStore(db, {
        name: 'exports',
        description: 'Earlier exports of the candidate (each a copy of everything), kept 7 days',
        table: 'hi_candidate_exports',
        // An export inside an export would double its size each time; its metadata is enough.
        omit: ['document', 'contacts'],
      }),
    ),
    candidateStore(
      tableStore(db, {
        name: 'legal_holds',
        description: "Legal holds placed on the candidate's data (an active hold blocks erasure; released ones are erased)",
        table: 'hi_legal_holds',
        where: (q, s) => q.where({ organization_id: s.organizationId, profile_user_id: s.profileUserId }),
      }),
    ),
    candidateStore(
      tableStore(db, {
        name: 'hires',
        description: 'Applications the organization reported as hires (kept from the applications retention rule)',
        table: 'hi_candidate_hires',
        where: (q, s) => q.where({ organization_id: s.organizationId, profile_user_id: s.profileUserId }),
      }),
    ),
    noCandidateData('hi_retention_settings', "Organizations' retention periods"),
    noCandidateData(
      'hi_candidate_erasures',
      'Erasure records: the candidate id and contacts only while the erasure runs, then a keyed digest of the id (a check constraint enforces it)',
    ),
  ];
}
