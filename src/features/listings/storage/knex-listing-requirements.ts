/** Listing requirements on knex: one row per listing with requirements (none: no row). */
import type { Database } from '../../../platform/database/database';
import { fromJson } from '../../../platform/database/json-column';
import type { Clock } from '../../../kernel/clock';
import type { CredentialRequirement, ListingRequirementsStore } from '../domain/credential-requirements';

interface RequirementsRow {
  organization_id: string;
  listing_id: string;
  requirements: unknown;
}

export class KnexListingRequirements implements ListingRequirementsStore {
  constructor(
    private readonly db: Database,
    private readonly clock: () => Clock,
  ) {}

  async get(organizationId: string, listingId: string): Promise<CredentialRequirement[]> {
    return (await this.getMany(organizationId, [listingId])).get(listingId) ?? [];
  }

  async getMany(organizationId: string, listingIds: string[]): Promise<Map<string, CredentialRequirement[]>> {
    if (listingIds.length === 0) return new Map();
    const rows = await this.db<RequirementsRow>('hi_listing_requirements')
      .where({ organization_id: organizationId })
      .whereIn('listing_id', listingIds)
      .select('listing_id', 'requirements');
    return new Map(rows.map((row) => [row.listing_id, fromJson<CredentialRequirement[]>(row.requirements)]));
  }

  async put(organizationId: string, listingId: string, requirements: CredentialRequirement[]): Promise<void> {
    const where = { organization_id: organizationId, listing_id: listingId };
    if (requirements.length === 0) {
      await this.db('hi_listing_requirements').where(where).delete();
      return;
    }
    await this.db('hi_listing_requirements')
      .insert({ ...where, requirements: JSON.stringify(requirements), updated_at: this.clock().now() })
      .onConflict(['organization_id', 'listing_id'])
      .merge(['requirements', 'updated_at']);
  }
}
