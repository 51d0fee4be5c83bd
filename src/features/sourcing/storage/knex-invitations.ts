/** hi_sourcing_invitations. */
import type { Knex } from 'knex';
import type { ClaimOutcome, Invitation, InvitationRepository } from '../domain/invitation';

const fromRow = (row: Record<string, any>): Invitation => ({
  id: row.id,
  organizationId: row.organization_id,
  listingId: row.listing_id,
  profileUserId: row.profile_user_id,
  runId: row.run_id ?? null,
  createdAt: new Date(row.created_at),
  expiresAt: new Date(row.expires_at),
  usedAt: row.used_at ? new Date(row.used_at) : null,
  applicationId: row.application_id ?? null,
});

export class KnexInvitations implements InvitationRepository {
  constructor(private readonly db: Knex) {}

  async create(i: Invitation): Promise<void> {
    await this.db('hi_sourcing_invitations').insert({
      id: i.id,
      organization_id: i.organizationId,
      listing_id: i.listingId,
      profile_user_id: i.profileUserId,
      run_id: i.runId,
      created_at: i.createdAt,
      expires_at: i.expiresAt,
    });
  }

  async delete(organizationId: string, id: string): Promise<void> {
    await this.db('hi_sourcing_invitations').where({ organization_id: organizationId, id }).delete();
  }

  async setRun(organizationId: string, id: string, runId: string): Promise<void> {
    await this.db('hi_sourcing_invitations').where({ organization_id: organizationId, id }).update({ run_id: runId });
  }

  async find(organizationId: string, id: string): Promise<Invitation | undefined> {
    const row = await this.db('hi_sourcing_invitations').where({ organization_id: organizationId, id }).first();
    return row ? fromRow(row) : undefined;
  }

  async claim(c: { organizationId: string; id: string; listingId: string; profileUserId: string; applicationId: string }, now: Date): Promise<ClaimOutcome> {
    const mine = { organization_id: c.organizationId, id: c.id, listing_id: c.listingId, profile_user_id: c.profileUserId };
    // One statement: of two applications racing with the same invitation, one claims it.
    const claimed = await this.db('hi_sourcing_invitations')
      .where(mine)
      .whereNull('used_at')
      .where('expires_at', '>', now)
      .update({ used_at: now, application_id: c.applicationId })
      .returning('id');
    if (claimed.length > 0) return 'claimed';
    const row = await this.db('hi_sourcing_invitations').where(mine).first();
    if (!row) return 'unknown';
    return row.used_at ? 'used' : 'expired';
  }

  async release(organizationId: string, applicationId: string): Promise<void> {
    await this.db('hi_sourcing_invitations')
      .where({ organization_id: organizationId, application_id: applicationId })
      .update({ used_at: null, application_id: null });
  }
}
