/**
 * The apply path's three reads (duplicate check, the candidate's authorization, the stored
 * snapshot) as one statement: one round trip instead of three, each part an index lookup
 * on the table's unique key.
 */
import { inject, injectable } from 'tsyringe';
import type { ApplyContext, ApplyContextReader } from '../domain/applications/apply-context';
import type { ExperienceSummary } from '../domain/profiles/experience-summary';
import type { ImportedCredential } from '../domain/profiles/profile-snapshot';
import type { WorkHistoryEntry } from '../domain/profiles/work-history';
import type { Database } from './database';
import { fromJson } from './json-column';
import { DATABASE } from './tokens';

interface ContextRow {
  existing_application_id: string | null;
  authorized_at: Date | null;
  name: string | null;
  headline: string | null;
  profile_url: string | null;
  skills: unknown;
  credentials: unknown;
  experience_summary: unknown;
  work_history: unknown;
  imported_at: Date | null;
}

const SQL = `
select
  (select p.id from hi_profile_applications p
    where p.organization_id = ? and p.listing_id = ? and p.profile_user_id = ?) as existing_application_id,
  a.authorized_at,
  s.name, s.headline, s.profile_url, s.skills, s.credentials, s.experience_summary, s.work_history, s.imported_at
from (select 1) as one
left join hi_candidate_authorizations a on a.organization_id = ? and a.profile_user_id = ?
left join hi_profile_snapshots s on s.organization_id = ? and s.profile_user_id = ?`;

@injectable()
export class KnexApplyContextReader implements ApplyContextReader {
  constructor(@inject(DATABASE) private readonly db: Database) {}

  async read(organizationId: string, listingId: string, profileUserId: string): Promise<ApplyContext> {
    const result = await this.db.raw(SQL, [organizationId, listingId, profileUserId, organizationId, profileUserId, organizationId, profileUserId]);
    const row = (result.rows as ContextRow[])[0]!;
    return {
      existingApplicationId: row.existing_application_id ?? undefined,
      authorizedAt: row.authorized_at ? new Date(row.authorized_at) : undefined,
      snapshot:
        row.imported_at === null
          ? undefined
          : {
              organizationId,
              profileUserId,
              name: row.name!,
              headline: row.headline,
              profileUrl: row.profile_url!,
              skills: fromJson<string[]>(row.skills),
              credentials: fromJson<ImportedCredential[]>(row.credentials),
              experienceSummary: fromJson<ExperienceSummary>(row.experience_summary),
              workHistory: fromJson<WorkHistoryEntry[]>(row.work_history) ?? [],
              importedAt: new Date(row.imported_at),
            },
    };
  }
}
