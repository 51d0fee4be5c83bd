/**
 * The warm apply's single statement (SnapshotApplications): read whether the candidate
 * already applied, their authorization and their stored snapshot; insert the application
 * from the snapshot's columns when the checks pass; write its outbox messages and name it
 * on the request's idempotency key in the same statement. A data-modifying WITH runs once
 * and atomically with the statement around it, so all of it is written or none.
 */
import { inject, injectable } from 'tsyringe';
import type { ApplicationDraft, SnapshotApplicationResult, SnapshotApplications } from '../domain/snapshot-application';
import type { OutboxMessage } from '../../../kernel/outbox';
import type { ExperienceSummary } from '../../profiles/domain/experience-summary';
import type { ImportedCredential } from '../../profiles/domain/profile-snapshot';
import { applicationThatWonTheRace } from './application-repository';
import type { Database } from '../../../platform/database/database';
import { heldIdempotencyKey } from '../../../platform/http/idempotency-effect';
import { fromJson } from '../../../platform/database/json-column';
import { onlyJobMessages, outboxRows } from '../../../platform/queue/outbox-rows';
import { DATABASE } from '../../../platform/database/tokens';
import { normalizedEmail } from '../domain/application-contact';

interface ResultRow {
  existing_application_id: string | null;
  contact_required: boolean;
  authorized_at: Date | null;
  id: string | null;
  imported_skills: unknown;
  imported_credentials: unknown;
  experience_summary: unknown;
  profile_url: string | null;
}

// Bindings: organization, listing and candidate (the three parts of the key), the
// organization and listing again (their background-check policy), then the draft's own
// columns, then the freshness bound. A listing with a background-check policy takes no
// application without a contact email (the vendor's invitation goes there).
const CONTEXT_AND_APPLICATION = `
with context as (
  select
    (select p.id from hi_profile_applications p
      where p.organization_id = ? and p.listing_id = ? and p.profile_user_id = ?) as existing_application_id,
    (cast(? as text) is null and exists (select 1 from hi_listing_background_checks b
      where b.organization_id = ? and b.listing_id = ?)) as contact_required,
    a.authorized_at,
    s.imported_at, s.name, s.headline, s.profile_url, s.skills, s.credentials, s.experience_summary, s.work_history
  from (select 1) as one
  left join hi_candidate_authorizations a on a.organization_id = ? and a.profile_user_id = ?
  left join hi_profile_snapshots s on s.organization_id = ? and s.profile_user_id = ?
),
application as (
  insert into hi_profile_applications
    (id, organization_id, listing_id, profile_user_id, status, cover_letter, answers, candidate_name, candidate_headline,
     imported_skills, imported_credentials, experience_summary, work_history, profile_url, source, contact_email, contact_phone, language, created_at)
  select ?, ?, ?, ?, 'submitted', ?, cast(? as jsonb), name, headline, skills, credentials, experience_summary, work_history, profile_url, ?, ?, ?, ?, ?
  from context
  where existing_application_id is null and not contact_required and authorized_at is not null and imported_at >= authorized_at and imported_at > ?
  returning id, imported_skills, imported_credentials, experience_summary, profile_url
)`;

const RESULT = `
select c.existing_application_id, c.contact_required, c.authorized_at, a.id, a.imported_skills, a.imported_credentials, a.experience_summary, a.profile_url
from context c left join application a on true`;

@injectable()
export class KnexSnapshotApplicationWriter implements SnapshotApplications {
  constructor(@inject(DATABASE) private readonly db: Database) {}

  async createFromStoredSnapshot(draft: ApplicationDraft, freshSince: Date, messages: readonly OutboxMessage[]): Promise<SnapshotApplicationResult> {
    if (!onlyJobMessages(messages)) throw new Error('createFromStoredSnapshot writes job messages only; record events from the pipeline delivery');
    const { organizationId: org, listingId: listing, profileUserId: user } = draft;
    const email = draft.contact ? normalizedEmail(draft.contact.email) : null;
    const bindings: unknown[] = [org, listing, user, email, org, listing, org, user, org, user];
    bindings.push(
      draft.id,
      org,
      listing,
      user,
      draft.coverLetter,
      JSON.stringify(draft.answers),
      draft.source,
      email,
      draft.contact?.phone ?? null,
      draft.language ?? null,
    );
    bindings.push(draft.createdAt, freshSince);
    let sql = CONTEXT_AND_APPLICATION;
    for (const row of outboxRows(messages)) {
      sql += `,\noutbox_${bindings.length} as (insert into hi_outbox (queue, name, job_id, data, delay_ms) select ?, ?, ?, cast(? as jsonb), ? from application)`;
      bindings.push(row.queue, row.name, row.job_id, row.data, row.delay_ms);
    }
    const key = heldIdempotencyKey();
    if (key) {
      // The request's idempotency key names the application it created, so a retry after a
      // lost answer replays it.
      sql += `,\nidempotency_effect as (update hi_idempotency_keys set effect_id = (select id from application)
  where scope = ? and key = ? and response_status is null and exists (select 1 from application))`;
      bindings.push(key.scope, key.key);
    }
    let row: ResultRow;
    try {
      // A named prepared statement: parsed and planned once per connection, not per
      // application (the text differs only by the number of messages and whether a key is held).
      const name = `hi_apply_from_snapshot_v4_${messages.length}${key ? '_keyed' : ''}`;
      row = (await this.db.raw(sql + RESULT, bindings as never[]).options({ name })).rows[0] as ResultRow;
    } catch (error) {
      // Another request for the same (organization, listing, candidate) won the race.
      const applicationId = await applicationThatWonTheRace(this.db, error, draft);
      if (!applicationId) throw error;
      return { outcome: 'duplicate', applicationId };
    }
    if (row.existing_application_id) return { outcome: 'duplicate', applicationId: row.existing_application_id };
    if (!row.authorized_at) return { outcome: 'not_authorized' };
    if (row.contact_required) return { outcome: 'contact_required' };
    if (!row.id) return { outcome: 'snapshot_needed', authorizedAt: new Date(row.authorized_at) };
    return {
      outcome: 'created',
      application: {
        id: row.id,
        status: 'submitted',
        importedSkills: fromJson<string[]>(row.imported_skills),
        importedCredentials: fromJson<ImportedCredential[]>(row.imported_credentials),
        experienceSummary: fromJson<ExperienceSummary>(row.experience_summary),
        profileUrl: row.profile_url!,
      },
    };
  }
}
