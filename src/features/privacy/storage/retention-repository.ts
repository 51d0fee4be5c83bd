/** hi_retention_settings, and the queries that find candidates due for retention. */
import { inject, injectable } from 'tsyringe';
import type { Database } from '../../../platform/database/database';
import { fromJson } from '../../../platform/database/json-column';
import { DATABASE } from '../../../platform/database/tokens';
import type { RetentionRepository } from '../domain/retention';

@injectable()
export class KnexRetentionRepository implements RetentionRepository {
  constructor(@inject(DATABASE) private readonly db: Database) {}

  async settings(organizationId: string) {
    const row = await this.db('hi_retention_settings').where({ organization_id: organizationId }).first();
    return {
      applicationsDays: row?.applications_days ?? null,
      unfinishedAuthorizationsDays: row?.unfinished_authorizations_days ?? null,
      updatedAt: row ? new Date(row.updated_at) : null,
    };
  }

  async saveSettings(organizationId: string, settings: { applicationsDays: number | null; unfinishedAuthorizationsDays: number | null }, at: Date) {
    await this.db('hi_retention_settings')
      .insert({
        organization_id: organizationId,
        applications_days: settings.applicationsDays,
        unfinished_authorizations_days: settings.unfinishedAuthorizationsDays,
        updated_at: at,
      })
      .onConflict('organization_id')
      .merge();
  }

  async unfinished(now: Date, defaultDays: number, limit: number) {
    const { rows } = await this.db.raw(
      `select c.organization_id, c.profile_user_id
         from (select organization_id, profile_user_id, authorized_at as at from hi_candidate_authorizations
               union all
               select organization_id, profile_user_id, imported_at from hi_profile_snapshots) c
         left join hi_retention_settings s on s.organization_id = c.organization_id
        where not exists (select 1 from hi_profile_applications p
                           where p.organization_id = c.organization_id and p.profile_user_id = c.profile_user_id)
        group by c.organization_id, c.profile_user_id, s.unfinished_authorizations_days
       having max(c.at) < ?::timestamptz - (coalesce(s.unfinished_authorizations_days, ?) * interval '1 day')
        limit ?`,
      [now.toISOString(), defaultDays, limit],
    );
    return rows.map((r: { organization_id: string; profile_user_id: string }) => ({ organizationId: r.organization_id, profileUserId: r.profile_user_id }));
  }

  async applicants(limit: number) {
    const { rows } = await this.db.raw(
      `select p.organization_id, p.profile_user_id, json_agg(distinct p.listing_id) as listing_ids, s.applications_days,
              exists (select 1 from hi_candidate_hires h
                       where h.organization_id = p.organization_id and h.profile_user_id = p.profile_user_id) as hired
         from hi_profile_applications p
         left join hi_retention_settings s on s.organization_id = p.organization_id
        group by p.organization_id, p.profile_user_id, s.applications_days
        limit ?`,
      [limit],
    );
    return rows.map((r: { organization_id: string; profile_user_id: string; listing_ids: unknown; applications_days: number | null; hired: boolean }) => ({
      organizationId: r.organization_id,
      profileUserId: r.profile_user_id,
      listingIds: fromJson<string[]>(r.listing_ids),
      applicationsDays: r.applications_days,
      hired: r.hired === true,
    }));
  }
}
