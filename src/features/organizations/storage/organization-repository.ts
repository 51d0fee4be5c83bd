import { inject, injectable } from 'tsyringe';
import type { ApiKeyRecord, Organization } from '../domain/organization';
import type { ApiKeyRepository, OrganizationRepository } from '../domain/ports';
import { DATABASE } from '../../../platform/database/tokens';
import { isUniqueViolation, type Database } from '../../../platform/database/database';
import { conflict } from '../../../kernel/errors';

interface OrganizationRow {
  id: string;
  name: string;
  external_id: string | null;
  created_at: Date;
}

const fromOrganizationRow = (row: OrganizationRow): Organization => ({
  id: row.id,
  name: row.name,
  externalId: row.external_id ?? null,
  createdAt: new Date(row.created_at),
});

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
    try {
      await this.db.transaction(async (trx) => {
        await trx<OrganizationRow>('hi_organizations').insert({
          id: organization.id,
          name: organization.name,
          external_id: organization.externalId ?? null,
          created_at: organization.createdAt,
        });
        await trx<ApiKeyRow>('hi_api_keys').insert(toKeyRow(key));
      });
    } catch (error) {
      if (isUniqueViolation(error, 'hi_organizations_external_id')) {
        throw conflict('organization_exists', 'An organization with this external_id already exists', { param: 'external_id' });
      }
      throw error;
    }
  }

  async findById(id: string): Promise<Organization | undefined> {
    const row = await this.db<OrganizationRow>('hi_organizations').where({ id }).first();
    return row ? fromOrganizationRow(row) : undefined;
  }

  async findByExternalId(externalId: string): Promise<Organization | undefined> {
    const row = await this.db<OrganizationRow>('hi_organizations').where({ external_id: externalId }).first();
    return row ? fromOrganizationRow(row) : undefined;
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
    const rows = await this.db<ApiKeyRow>('hi_api_keys').where({ prefix }).whereNull('revoked_at').update({ revoked_at: at }).returning('*');
    return rows[0] ? fromKeyRow(rows[0] as ApiKeyRow) : undefined;
  }
}
