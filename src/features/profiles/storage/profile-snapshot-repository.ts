import { inject, injectable } from 'tsyringe';
import type { ExperienceSummary } from '../domain/experience-summary';
import type { ImportedCredential, ProfileSnapshot } from '../domain/profile-snapshot';
import type { ProfileSnapshotRepository } from '../domain/snapshot-repository';
import type { WorkHistoryEntry } from '../domain/work-history';
import type { Database } from '../../../platform/database/database';
import { fromJson } from '../../../platform/database/json-column';
import { DATABASE } from '../../../platform/database/tokens';

interface SnapshotRow {
  organization_id: string;
  profile_user_id: string;
  name: string;
  headline: string | null;
  profile_url: string;
  skills: unknown;
  credentials: unknown;
  experience_summary: unknown;
  work_history: unknown;
  imported_at: Date;
}

@injectable()
export class KnexProfileSnapshotRepository implements ProfileSnapshotRepository {
  constructor(@inject(DATABASE) private readonly db: Database) {}

  async find(organizationId: string, profileUserId: string): Promise<ProfileSnapshot | undefined> {
    const row = await this.db<SnapshotRow>('hi_profile_snapshots').where({ organization_id: organizationId, profile_user_id: profileUserId }).first();
    if (!row) return undefined;
    return {
      organizationId: row.organization_id,
      profileUserId: row.profile_user_id,
      name: row.name,
      headline: row.headline,
      profileUrl: row.profile_url,
      skills: fromJson<string[]>(row.skills),
      credentials: fromJson<ImportedCredential[]>(row.credentials),
      experienceSummary: fromJson<ExperienceSummary>(row.experience_summary),
      workHistory: fromJson<WorkHistoryEntry[]>(row.work_history) ?? [],
      importedAt: new Date(row.imported_at),
    };
  }

  async save(snapshot: ProfileSnapshot): Promise<void> {
    await this.db('hi_profile_snapshots')
      .insert({
        organization_id: snapshot.organizationId,
        profile_user_id: snapshot.profileUserId,
        name: snapshot.name,
        headline: snapshot.headline,
        profile_url: snapshot.profileUrl,
        skills: JSON.stringify(snapshot.skills),
        credentials: JSON.stringify(snapshot.credentials),
        experience_summary: JSON.stringify(snapshot.experienceSummary),
        work_history: JSON.stringify(snapshot.workHistory),
        imported_at: snapshot.importedAt,
      })
      .onConflict(['organization_id', 'profile_user_id'])
      .merge();
  }
}
