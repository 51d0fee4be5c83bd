/**
 * Time off and the followed calendars' owners in the candidate data registry: both name a
 * person by email (the host's people are matched by the emails it knows them by), so they are
 * exported, erased and kept no longer than any other personal data.
 */
import type { Knex } from 'knex';
import type { CandidateDataStore, CandidateSubject } from '../../privacy/domain/candidate-data';
import { tableStore } from '../../privacy/storage/table-store';

const byEmail = (query: Knex.QueryBuilder, subject: CandidateSubject) =>
  query.where({ organization_id: subject.organizationId }).whereIn(
    'email',
    subject.emails.map((e) => e.toLowerCase()),
  );

export const timeOffCandidateStore = (db: Knex): CandidateDataStore =>
  tableStore(db, {
    name: 'time_off',
    description: 'Time off the host reported for a person (dates, zone, optional reason), which blocks interview slots and is written into their calendar',
    table: 'hi_time_off',
    where: byEmail,
    omit: ['digest'],
  });

export const availabilityCalendarCandidateStore = (db: Knex): CandidateDataStore =>
  tableStore(db, {
    name: 'availability_calendars',
    description:
      "Calendars followed for a person's busy times (the connection, the calendar's address, the person's email); erasing them drops their cached busy times too",
    table: 'hi_availability_calendars',
    where: byEmail,
    omit: ['sync_state'],
  });
