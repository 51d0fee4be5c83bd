import type { ApiKeyRecord, Organization } from './organization';

export interface OrganizationRepository {
  /** Creates the organization and its first key in one transaction. */
  createWithKey(organization: Organization, key: ApiKeyRecord): Promise<void>;
  findById(id: string): Promise<Organization | undefined>;
  findByExternalId(externalId: string): Promise<Organization | undefined>;
}

export interface ApiKeyRepository {
  findByPrefix(prefix: string): Promise<ApiKeyRecord | undefined>;
  listForOrganization(organizationId: string): Promise<ApiKeyRecord[]>;
  /** Inserts the new key and sets `expiresAt` on every other open-ended key, atomically. */
  rotate(newKey: ApiKeyRecord, expireOthersAt: Date): Promise<void>;
  /** Returns the revoked key, or undefined when no live key has that prefix. */
  revoke(prefix: string, at: Date): Promise<ApiKeyRecord | undefined>;
}

export const ORGANIZATION_REPOSITORY = Symbol('OrganizationRepository');
export const API_KEY_REPOSITORY = Symbol('ApiKeyRepository');
