import { inject, injectable } from 'tsyringe';
import type { AnswerValue } from '../domain/answer-validation';
import type { ProfileApplication } from '../domain/application';
import type { ApplicationPage, ApplicationRepository } from '../domain/ports';
import type { OutboxMessage } from '../../../kernel/outbox';
import type { ExperienceSummary } from '../../profiles/domain/experience-summary';
import type { ImportedCredential } from '../../profiles/domain/profile-snapshot';
import type { WorkHistoryEntry } from '../../profiles/domain/work-history';
import { isUniqueViolation, type Database } from '../../../platform/database/database';
import { fromJson } from '../../../platform/database/json-column';
import { idempotencyEffect } from '../../../platform/http/idempotency-effect';
import { onlyJobMessages, outboxRows } from '../../../platform/queue/outbox-rows';
import { DATABASE } from '../../../platform/database/tokens';
import { normalizedEmail } from '../domain/application-contact';

const ONE_PER_CANDIDATE = 'hi_profile_applications_one_per_candidate';

/**
 * After an insert failed: the id of the application that won the race for the same
 * (organization, listing, candidate), or undefined when the error was anything else.
 */
export async function applicationThatWonTheRace(
  db: Database,
  error: unknown,
  key: { organizationId: string; listingId: string; profileUserId: string },
): Promise<string | undefined> {
  if (!isUniqueViolation(error, ONE_PER_CANDIDATE)) return undefined;
  const row = await db('hi_profile_applications')
    .select('id')
    .where({ organization_id: key.organizationId, listing_id: key.listingId, profile_user_id: key.profileUserId })
    .first();
  return row?.id as string | undefined;
}

interface ApplicationRow {
  id: string;
  seq: string | number;
  organization_id: string;
  listing_id: string;
  profile_user_id: string;
  status: 'submitted';
  cover_letter: string | null;
  answers: unknown;
  candidate_name: string;
  candidate_headline: string | null;
  imported_skills: unknown;
  imported_credentials: unknown;
  experience_summary: unknown;
  work_history: unknown;
  profile_url: string;
  source: string | null;
  contact_email: string | null;
  contact_phone: string | null;
  language?: string | null;
  duplicate_of?: string | null;
  created_at: Date;
  delivered_at: Date | null;
}

const fromRow = (row: ApplicationRow): ProfileApplication => ({
  id: row.id,
  organizationId: row.organization_id,
  listingId: row.listing_id,
  profileUserId: row.profile_user_id,
  status: row.status,
  coverLetter: row.cover_letter,
  answers: fromJson<Record<string, AnswerValue>>(row.answers),
  candidateName: row.candidate_name,
  candidateHeadline: row.candidate_headline,
  importedSkills: fromJson<string[]>(row.imported_skills),
  importedCredentials: fromJson<ImportedCredential[]>(row.imported_credentials),
  experienceSummary: fromJson<ExperienceSummary>(row.experience_summary),
  workHistory: fromJson<WorkHistoryEntry[]>(row.work_history) ?? [],
  profileUrl: row.profile_url,
  source: row.source ?? null,
  contact: row.contact_email ? { email: row.contact_email, phone: row.contact_phone ?? null } : null,
  duplicateOf: row.duplicate_of ?? null,
  language: row.language ?? null,
  createdAt: new Date(row.created_at),
  deliveredAt: row.delivered_at ? new Date(row.delivered_at) : null,
});

/** The hi_profile_applications row of an application (also written by board applications, in their own transaction). */
export function applicationRow(application: ProfileApplication) {
  return {
    id: application.id,
    organization_id: application.organizationId,
    listing_id: application.listingId,
    profile_user_id: application.profileUserId,
    status: application.status,
    cover_letter: application.coverLetter,
    answers: JSON.stringify(application.answers),
    candidate_name: application.candidateName,
    candidate_headline: application.candidateHeadline,
    imported_skills: JSON.stringify(application.importedSkills),
    imported_credentials: JSON.stringify(application.importedCredentials),
    experience_summary: JSON.stringify(application.experienceSummary),
    work_history: JSON.stringify(application.workHistory),
    profile_url: application.profileUrl,
    source: application.source,
    contact_email: application.contact ? normalizedEmail(application.contact.email) : null,
    contact_phone: application.contact?.phone ?? null,
    language: application.language ?? null,
    created_at: application.createdAt,
  };
}

/**
 * The earlier application to the same listing with the same contact email: the same person
 * applied twice (a job board, then their profile). Flagged on reads, not refused: the profile
 * brings verified credentials the board application lacks.
 */
const DUPLICATE_OF = `(select q.id from hi_profile_applications q
  where q.organization_id = hi_profile_applications.organization_id and q.listing_id = hi_profile_applications.listing_id
    and q.contact_email = hi_profile_applications.contact_email and q.seq < hi_profile_applications.seq
  order by q.seq limit 1) as duplicate_of`;

@injectable()
export class KnexApplicationRepository implements ApplicationRepository {
  constructor(@inject(DATABASE) private readonly db: Database) {}

  private select() {
    return this.db<ApplicationRow>('hi_profile_applications').select('hi_profile_applications.*', this.db.raw(DUPLICATE_OF));
  }

  async create(application: ProfileApplication, messages: readonly OutboxMessage[]): Promise<{ created: true } | { created: false; duplicateOf: string }> {
    // Job messages only: an event needs the event log's transaction, which the apply path
    // leaves to the pipeline delivery (application.submitted) to stay one statement.
    if (!onlyJobMessages(messages)) throw new Error('ApplicationRepository.create writes job messages only; record events from the pipeline delivery');
    try {
      const row = applicationRow(application);
      // One statement, so one round trip instead of four (BEGIN, two INSERTs, COMMIT): a
      // data-modifying WITH runs exactly once and atomically with the statement around it,
      // so the row and its outbox messages are written together or not at all.
      // The request's idempotency key (if any) names the application in the same statement.
      const effect = idempotencyEffect(this.db, application.id);
      const first = effect ? this.db.with('idempotency_effect', effect) : this.db;
      if (messages.length === 0) await first.insert(row).into('hi_profile_applications');
      else await first.with('application', this.db('hi_profile_applications').insert(row)).insert(outboxRows(messages)).into('hi_outbox');
      return { created: true };
    } catch (error) {
      const duplicateOf = await applicationThatWonTheRace(this.db, error, application);
      if (!duplicateOf) throw error;
      return { created: false, duplicateOf };
    }
  }

  async find(organizationId: string, applicationId: string): Promise<ProfileApplication | undefined> {
    const row = await this.select().where({ id: applicationId, organization_id: organizationId }).first();
    return row ? fromRow(row) : undefined;
  }

  async findById(applicationId: string): Promise<ProfileApplication | undefined> {
    const row = await this.select().where({ id: applicationId }).first();
    return row ? fromRow(row) : undefined;
  }

  async findExisting(organizationId: string, listingId: string, profileUserId: string): Promise<ProfileApplication | undefined> {
    const row = await this.db<ApplicationRow>('hi_profile_applications')
      .where({ organization_id: organizationId, listing_id: listingId, profile_user_id: profileUserId })
      .first();
    return row ? fromRow(row) : undefined;
  }

  async list(organizationId: string, listingId: string, options: { limit: number; startingAfter?: string }): Promise<ApplicationPage> {
    let query = this.select()
      .where({ organization_id: organizationId, listing_id: listingId })
      .orderBy('seq', 'desc')
      .limit(options.limit + 1);
    if (options.startingAfter) {
      const cursor = this.db('hi_profile_applications').select('seq').where({ id: options.startingAfter, organization_id: organizationId });
      query = query.where('seq', '<', cursor);
    }
    const rows = await query;
    return { data: rows.slice(0, options.limit).map(fromRow), hasMore: rows.length > options.limit };
  }

  async countBySource(organizationId: string): Promise<{ source: string; listingId: string; applications: number }[]> {
    const rows: { source: string; listing_id: string; count: string | number }[] = await this.db('hi_profile_applications')
      .select('source', 'listing_id')
      .count({ count: '*' })
      .where({ organization_id: organizationId })
      .whereNotNull('source')
      .groupBy('source', 'listing_id');
    return rows.map((r) => ({ source: r.source, listingId: r.listing_id, applications: Number(r.count) }));
  }

  async markDelivered(applicationId: string, at: Date): Promise<void> {
    await this.db('hi_profile_applications').where({ id: applicationId }).whereNull('delivered_at').update({ delivered_at: at });
  }
}
