/** hi_sourcing_consents, read with each candidate's latest application (hi_profile_applications). */
import type { Knex } from 'knex';
import { fromJson } from '../../../platform/database/json-column';
import type { ExperienceSummary } from '../../profiles/domain/experience-summary';
import type { ImportedCredential } from '../../profiles/domain/profile-snapshot';
import type { PoolCandidate } from '../domain/candidate-ranking';
import type { PoolMember, TalentPoolRepository } from '../domain/talent-pool';

export class KnexTalentPool implements TalentPoolRepository {
  constructor(private readonly db: Knex) {}

  async consent(m: Omit<PoolMember, 'withdrawnAt'>): Promise<void> {
    // A later consent replaces the earlier one (and ends a withdrawal: the candidate agreed again).
    await this.db('hi_sourcing_consents')
      .insert({
        organization_id: m.organizationId,
        profile_user_id: m.profileUserId,
        application_id: m.applicationId,
        email: m.email,
        location: m.location,
        language: m.language ?? null,
        granted_at: m.grantedAt,
        withdrawn_at: null,
      })
      .onConflict(['organization_id', 'profile_user_id'])
      .merge(['application_id', 'email', 'location', 'language', 'granted_at', 'withdrawn_at']);
  }

  async active(organizationId: string, profileUserId: string): Promise<PoolMember | undefined> {
    const member = await this.member(organizationId, profileUserId);
    return member && member.withdrawnAt === null ? member : undefined;
  }

  async member(organizationId: string, profileUserId: string): Promise<PoolMember | undefined> {
    const row = await this.db('hi_sourcing_consents').where({ organization_id: organizationId, profile_user_id: profileUserId }).first();
    if (!row) return undefined;
    return {
      organizationId: row.organization_id,
      profileUserId: row.profile_user_id,
      applicationId: row.application_id,
      email: row.email,
      location: row.location ?? null,
      language: row.language ?? null,
      grantedAt: new Date(row.granted_at),
      withdrawnAt: row.withdrawn_at ? new Date(row.withdrawn_at) : null,
    };
  }

  async withdraw(organizationId: string, profileUserId: string, at: Date): Promise<boolean> {
    const updated = await this.db('hi_sourcing_consents')
      .where({ organization_id: organizationId, profile_user_id: profileUserId })
      .whereNull('withdrawn_at')
      .update({ withdrawn_at: at })
      .returning('profile_user_id');
    return updated.length > 0;
  }

  async candidates(organizationId: string, limit: number): Promise<PoolCandidate[]> {
    const latest = this.db('hi_sourcing_consents as c')
      .join('hi_profile_applications as a', (join) => join.on('a.organization_id', 'c.organization_id').andOn('a.profile_user_id', 'c.profile_user_id'))
      .distinctOn('a.profile_user_id')
      .select(
        'a.profile_user_id',
        'a.id',
        'a.listing_id',
        'a.created_at',
        'a.candidate_name',
        'a.candidate_headline',
        'a.imported_skills',
        'a.imported_credentials',
        'a.experience_summary',
        'c.location',
      )
      .where('c.organization_id', organizationId)
      .whereNull('c.withdrawn_at')
      .orderBy([
        { column: 'a.profile_user_id', order: 'asc' },
        { column: 'a.seq', order: 'desc' },
      ])
      .as('latest');
    const rows: Record<string, any>[] = await this.db.select('*').from(latest).orderBy('created_at', 'desc').limit(limit);
    return rows.map((row) => ({
      profileUserId: row.profile_user_id,
      name: row.candidate_name,
      headline: row.candidate_headline ?? null,
      location: row.location ?? null,
      skills: fromJson<string[]>(row.imported_skills) ?? [],
      credentials: fromJson<ImportedCredential[]>(row.imported_credentials) ?? [],
      totalYears: Number(fromJson<ExperienceSummary>(row.experience_summary)?.total_years ?? 0),
      lastApplicationId: row.id,
      lastListingId: row.listing_id,
      lastAppliedAt: new Date(row.created_at),
    }));
  }
}
