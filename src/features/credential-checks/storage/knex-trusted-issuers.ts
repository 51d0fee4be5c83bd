/** Trust lists on knex: one row per organization and credential type (its lower-case key). */
import type { Database } from '../../../platform/database/database';
import { fromJson } from '../../../platform/database/json-column';
import { trustKey, type TrustedIssuersStore, type TrustList } from '../domain/trusted-issuers';

interface TrustRow {
  organization_id: string;
  type_key: string;
  credential_type: string;
  issuers: unknown;
  updated_at: Date;
}

const fromRow = (row: TrustRow): TrustList => ({
  credentialType: row.credential_type,
  issuers: fromJson<string[]>(row.issuers),
  updatedAt: new Date(row.updated_at),
});

export class KnexTrustedIssuers implements TrustedIssuersStore {
  constructor(private readonly db: Database) {}

  async list(organizationId: string): Promise<TrustList[]> {
    return (await this.db<TrustRow>('hi_trusted_issuers').where({ organization_id: organizationId }).orderBy('type_key')).map(fromRow);
  }

  async find(organizationId: string, credentialType: string): Promise<TrustList | undefined> {
    const row = await this.db<TrustRow>('hi_trusted_issuers')
      .where({ organization_id: organizationId, type_key: trustKey(credentialType) })
      .first();
    return row ? fromRow(row) : undefined;
  }

  async put(organizationId: string, credentialType: string, issuers: string[], now: Date): Promise<TrustList> {
    await this.db('hi_trusted_issuers')
      .insert({
        organization_id: organizationId,
        type_key: trustKey(credentialType),
        credential_type: credentialType,
        issuers: JSON.stringify(issuers),
        updated_at: now,
      })
      .onConflict(['organization_id', 'type_key'])
      .merge(['credential_type', 'issuers', 'updated_at']);
    return { credentialType, issuers, updatedAt: now };
  }

  async delete(organizationId: string, credentialType: string): Promise<boolean> {
    return (
      (await this.db('hi_trusted_issuers')
        .where({ organization_id: organizationId, type_key: trustKey(credentialType) })
        .delete()) > 0
    );
  }
}
