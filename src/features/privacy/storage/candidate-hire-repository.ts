/** hi_candidate_hires: the hires organizations reported, one per application. */
import { inject, injectable } from 'tsyringe';
import type { Database } from '../../../platform/database/database';
import { DATABASE } from '../../../platform/database/tokens';
import type { CandidateHire, CandidateHireRepository } from '../domain/candidate-hires';

type Row = Record<string, any>;

const fromRow = (row: Row): CandidateHire => ({
  id: row.id,
  organizationId: row.organization_id,
  profileUserId: row.profile_user_id,
  applicationId: row.application_id,
  listingId: row.listing_id,
  hiredAt: new Date(row.hired_at),
  createdAt: new Date(row.created_at),
});

@injectable()
export class KnexCandidateHireRepository implements CandidateHireRepository {
  constructor(@inject(DATABASE) private readonly db: Database) {}

  async record(hire: Omit<CandidateHire, 'listingId'>): Promise<CandidateHire | undefined> {
    const where = { organization_id: hire.organizationId, profile_user_id: hire.profileUserId };
    const application = await this.db('hi_profile_applications')
      .where({ ...where, id: hire.applicationId })
      .first('listing_id');
    if (!application) return undefined;
    await this.db('hi_candidate_hires')
      .insert({
        id: hire.id,
        ...where,
        application_id: hire.applicationId,
        listing_id: application.listing_id,
        hired_at: hire.hiredAt,
        created_at: hire.createdAt,
      })
      .onConflict(['organization_id', 'application_id'])
      .ignore();
    return fromRow(await this.db('hi_candidate_hires').where({ organization_id: hire.organizationId, application_id: hire.applicationId }).first());
  }

  async list(organizationId: string, profileUserId: string): Promise<CandidateHire[]> {
    return (await this.db('hi_candidate_hires').where({ organization_id: organizationId, profile_user_id: profileUserId }).orderBy('hired_at', 'desc')).map(
      fromRow,
    );
  }
}
