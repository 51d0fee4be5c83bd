/** Requirements of many listings (or roles) and the organization's trust lists in one statement. */
import type { Database } from '../../../platform/database/database';
import { fromJson } from '../../../platform/database/json-column';
import type { CredentialRequirement } from '../../listings/domain/credential-requirements';
import { applyTrustLists, type RequirementsWithTrust } from '../domain/requirements-with-trust';

interface Row {
  listing_id: string;
  requirements: unknown;
  trust: unknown;
}

export class KnexRequirementsWithTrust implements RequirementsWithTrust {
  constructor(private readonly db: Database) {}

  load(organizationId: string, listingIds: string[]): Promise<Map<string, CredentialRequirement[]>> {
    return this.loadFrom('hi_listing_requirements', 'listing_id', organizationId, listingIds);
  }

  loadRoles(organizationId: string, roleIds: string[]): Promise<Map<string, CredentialRequirement[]>> {
    return this.loadFrom('hi_roles', 'id', organizationId, roleIds);
  }

  private async loadFrom(table: string, idColumn: string, organizationId: string, ids: string[]): Promise<Map<string, CredentialRequirement[]>> {
    if (ids.length === 0) return new Map();
    const trust = this.db('hi_trusted_issuers as t')
      .whereRaw('t.organization_id = r.organization_id')
      .select(this.db.raw("coalesce(json_object_agg(t.type_key, t.issuers), '{}'::json)"));
    const rows: Row[] = await this.db(`${table} as r`)
      .where('r.organization_id', organizationId)
      .whereIn(`r.${idColumn}`, ids)
      .select(`r.${idColumn} as listing_id`, 'r.requirements', trust.as('trust'));
    return new Map(
      rows.map((row) => {
        const lists = new Map(Object.entries(fromJson<Record<string, string[]>>(row.trust) ?? {}));
        return [row.listing_id, applyTrustLists(fromJson<CredentialRequirement[]>(row.requirements), lists)];
      }),
    );
  }
}
