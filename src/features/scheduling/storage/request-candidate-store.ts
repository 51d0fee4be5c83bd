/** Scheduling requests as a store of candidate data: name, email, phone, language (export, erasure, retention walk it). */
import type { Knex } from 'knex';
import type { CandidateDataStore } from '../../privacy/domain/candidate-data';
import { tableStore } from '../../privacy/storage/table-store';

export const requestCandidateStore = (db: Knex): CandidateDataStore =>
  tableStore(db, {
    name: 'scheduling_requests',
    description: 'Interview scheduling requests sent to the candidate: name, email, phone, language, time zone, the window offered',
    table: 'hi_scheduling_requests',
    where: (query, subject) =>
      query.where({ organization_id: subject.organizationId }).where((w) =>
        w
          .whereIn(
            'candidate_email',
            subject.emails.map((e) => e.toLowerCase()),
          )
          .orWhereIn('candidate_phone', [...subject.phones]),
      ),
  });
