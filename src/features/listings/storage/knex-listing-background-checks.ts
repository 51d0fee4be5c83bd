/** Listing background-check policies on knex: one row per listing with a policy (none: no row). */
import type { Database } from '../../../platform/database/database';
import { fromJson } from '../../../platform/database/json-column';
import type { Clock } from '../../../kernel/clock';
import type { BackgroundCheckPolicy, ListingBackgroundCheckPolicies } from '../domain/background-check-policy';

export class KnexListingBackgroundChecks implements ListingBackgroundCheckPolicies {
  constructor(
    private readonly db: Database,
    private readonly clock: () => Clock,
  ) {}

  async get(organizationId: string, listingId: string): Promise<BackgroundCheckPolicy | null> {
    return (await this.getMany(organizationId, [listingId])).get(listingId) ?? null;
  }

  async getMany(organizationId: string, listingIds: string[]): Promise<Map<string, BackgroundCheckPolicy>> {
    if (listingIds.length === 0) return new Map();
    const rows: { listing_id: string; policy: unknown }[] = await this.db('hi_listing_background_checks')
      .where({ organization_id: organizationId })
      .whereIn('listing_id', listingIds)
      .select('listing_id', 'policy');
    return new Map(rows.map((row) => [row.listing_id, fromJson<BackgroundCheckPolicy>(row.policy)]));
  }

  async put(organizationId: string, listingId: string, policy: BackgroundCheckPolicy | null): Promise<void> {
    const where = { organization_id: organizationId, listing_id: listingId };
    if (policy === null) {
      await this.db('hi_listing_background_checks').where(where).delete();
      return;
    }
    await this.db('hi_listing_background_checks')
      .insert({ ...where, policy: JSON.stringify(policy), updated_at: this.clock().now() })
      .onConflict(['organization_id', 'listing_id'])
      .merge(['policy', 'updated_at']);
  }
}
