import { inject, injectable } from 'tsyringe';
import type { ApiKeyRecord, Organization } from '../domain/organizations/organization';
import type { ApiKeyRepository, OrganizationRepository } from '../domain/organizations/ports';
import { DATABASE } from './tokens';
import type { Database } from './database';

interface OrganizationRow {
  id: string;
  name: string;
  created_at: Date;
}

interface ApiKeyRow {
  id: string;
  organization_id: string;
  prefix: string;
  hash: string;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
}

const toKeyRow = (key: ApiKeyRecord): ApiKeyRow => ({
  id: key.id,
  organization_id: key.organizationId,
  prefix: key.prefix,
  hash: key.hash,
  created_at: key.createdAt,
  expires_at: key.expiresAt,
  revoked_at: key.revokedAt,
});

const fromKeyRow = (row: ApiKeyRow): ApiKeyRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  prefix: row.prefix,
  hash: row.hash,
  createdAt: new Date(row.created_at),
  expiresAt: row.expires_at ? new Date(row.expires_at) : null,
  revokedAt: row.revoked_at ? new Date(row.revoked_at) : null,
});

@injectable()
export class KnexOrganizationRepository implements OrganizationRepository {
  constructor(@inject(DATABASE) private readonly db: Database) {}

  async createWithKey(organization: Organization, key: ApiKeyRecord): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx<OrganizationRow>('hi_organizations').insert({
        id: organization.id,
        name: organization.name,
        created_at: organization.createdAt,
      });
      await trx<ApiKeyRow>('hi_api_keys').insert(toKeyRow(key));
    });
  }

  async findById(id: string): Promise<Organization | undefined> {
    const row = await this.db<OrganizationRow>('hi_organizations').where({ id }).first();
    return row ? { id: row.id, name: row.name, createdAt: new Date(row.created_at) } : undefined;
  }
}

@injectable()
export class KnexApiKeyRepository implements ApiKeyRepository {
  constructor(@inject(DATABASE) private readonly db: Database) {}

  async findByPrefix(prefix: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.db<ApiKeyRow>('hi_api_keys').where({ prefix }).first();
    return row ? fromKeyRow(row) : undefined;
  }

  async listForOrganization(organizationId: string): Promise<ApiKeyRecord[]> {
    const rows = await this.db<ApiKeyRow>('hi_api_keys').where({ organization_id: organizationId }).orderBy('created_at');
    return rows.map(fromKeyRow);
  }

  async rotate(newKey: ApiKeyRecord, expireOthersAt: Date): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx<ApiKeyRow>('hi_api_keys')
        .where({ organization_id: newKey.organizationId })
        .whereNull('revoked_at')
        .where((q) => q.whereNull('expires_at').orWhere('expires_at', '>', expireOthersAt))
        .update({ expires_at: expireOthersAt });
      await trx<ApiKeyRow>('hi_api_keys').insert(toKeyRow(newKey));
    });
  }

  async revoke(prefix: string, at: Date): Promise<ApiKeyRecord | undefined> {
    const rows = await this.db<ApiKeyRow>('hi_api_keys')
      .where({ prefix })
      .whereNull('revoked_at')
      .update({ revoked_at: at })
      .returning('*');
    return rows[0] ? fromKeyRow(rows[0] as ApiKeyRow) : undefined;
  }
}
