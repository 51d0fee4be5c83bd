/** Bookings as a store of candidate data (export, erasure, retention walk it). */
import type { Knex } from 'knex';
import type { CandidateDataStore } from '../../privacy/domain/candidate-data';
import { tableStore } from '../../privacy/storage/table-store';

export const bookingCandidateStore = (db: Knex): CandidateDataStore =>
  tableStore(db, {
    name: 'interview_bookings',
    description: 'Interviews the candidate booked through a scheduling link: time, name and email',
    table: 'hi_scheduling_bookings',
    // Booked by a host-side candidate: matched by the email the host knows them by (stored lowercased).
    where: (query, subject) =>
      query.where({ organization_id: subject.organizationId }).whereIn(
        'candidate_email',
        subject.emails.map((e) => e.toLowerCase()),
      ),
    // The slot stays claimed (the interviewers' calendars still hold the event); who booked it goes.
    anonymize: () => ({ candidate_name: 'erased', candidate_email: 'erased' }),
  });
