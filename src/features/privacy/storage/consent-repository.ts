/** hi_candidate_consents: written and ended inside the authorization repository's transactions. */
import type { Knex } from 'knex';
import { inject, injectable } from 'tsyringe';
import type { CandidateAuthorization } from '../../profiles/domain/candidate-authorization';
import { newId } from '../../../kernel/ids';
import type { Database } from '../../../platform/database/database';
import { fromJson } from '../../../platform/database/json-column';
import { DATABASE } from '../../../platform/database/tokens';
import type { ConsentGrant, ConsentRecord, ConsentRepository } from '../domain/consent';

export async function insertConsent(trx: Knex.Transaction, authorization: CandidateAuthorization, grant: ConsentGrant): Promise<void> {
  // The previous consent of this (organization, candidate) is superseded by the new grant.
  await revokeConsents(trx, authorization.organizationId, authorization.profileUserId, 'superseded', authorization.authorizedAt);
  await trx('hi_candidate_consents').insert({
    id: newId('cns'),
    organization_id: authorization.organizationId,
    profile_user_id: authorization.profileUserId,
    listing_id: authorization.listingId,
    listing_title: grant.listingTitle,
    organization_name: grant.organizationName,
    scopes: JSON.stringify(grant.scopes),
    statement: grant.statement,
    granted_at: authorization.authorizedAt,
  });
}

export async function revokeConsents(trx: Knex.Transaction, organizationId: string, profileUserId: string, reason: string, at: Date): Promise<void> {
  await trx('hi_candidate_consents')
    .where({ organization_id: organizationId, profile_user_id: profileUserId })
    .whereNull('revoked_at')
    .update({ revoked_at: at, revoked_reason: reason });
}

@injectable()
export class KnexConsentRepository implements ConsentRepository {
  constructor(@inject(DATABASE) private readonly db: Database) {}

  async list(organizationId: string, profileUserId: string): Promise<ConsentRecord[]> {
    const rows = await this.db('hi_candidate_consents')
      .where({ organization_id: organizationId, profile_user_id: profileUserId })
      .orderBy('seq', 'desc')
      .limit(100);
    return rows.map((row) => ({
      id: row.id,
      organizationId: row.organization_id,
      profileUserId: row.profile_user_id,
      listingId: row.listing_id,
      listingTitle: row.listing_title,
      organizationName: row.organization_name,
      scopes: fromJson<string[]>(row.scopes),
      statement: row.statement,
      grantedAt: new Date(row.granted_at),
      revokedAt: row.revoked_at ? new Date(row.revoked_at) : null,
      revokedReason: row.revoked_reason,
    }));
  }
}
