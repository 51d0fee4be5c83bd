/**
 * A role employees hold (RN, food handler, driver) and what it requires of their credentials:
 * the same requirement model as a listing's (type, trusted issuers, minimum validity,
 * verified source).
 */
import type { CredentialRequirement } from '../../listings/domain/credential-requirements';

export interface Role {
  id: string;
  organizationId: string;
  name: string;
  requirements: CredentialRequirement[];
  createdAt: Date;
  updatedAt: Date;
}

export interface RoleRepository {
  insert(role: Role): Promise<void>;
  get(organizationId: string, id: string): Promise<Role | undefined>;
  getMany(organizationId: string, ids: string[]): Promise<Role[]>;
  /** One page in id order (`limit` rows at most). */
  list(organizationId: string, limit: number, startingAfter?: string): Promise<Role[]>;
  update(organizationId: string, id: string, changes: Pick<Role, 'name' | 'requirements' | 'updatedAt'>): Promise<Role | undefined>;
  delete(organizationId: string, id: string): Promise<boolean>;
}

export const ROLE_REPOSITORY = Symbol('RoleRepository');
